// PATCH /settings for the caller's own account: settings, display name, a new email address
// (pending until the link is followed, email-change-requests.ts; with --rate-limit, 2 an hour
// and 5 a day) and a password change. Everything is checked before anything changes, in the
// order the real server reports problems.
import { badRequest } from '../../errors.js';
import type { Ctx, WorldCtx } from '../context.js';
import type { User } from '../../store/state.js';
import { activeUserIds } from './access.js';
import { changeUserSetting } from './setting-change.js';
import { checkOwnNewEmail, startEmailChange } from './email-change-requests.js';
import { countEmailChange } from './email-change-limit.js';
import {
  checkBatchingPeriod,
  checkDefaultLanguage,
  checkFullName,
  checkNotificationSound,
  checkPasswordStrength,
  checkTimeZone,
} from './settings-values.js';

/** Parameters of PATCH /settings that are not personal settings. */
const ACCOUNT_PARAMS = new Set(['full_name', 'email', 'old_password', 'new_password', 'target_users']);

/** The personal settings among the request's parameters, in request order. */
export function requestedSettings(params: Record<string, unknown>): Array<[string, unknown]> {
  return Object.entries(params).filter(([k, v]) => !ACCOUNT_PARAMS.has(k) && v !== undefined);
}

/** The server-side checks of setting values that the description cannot express. */
export function checkSettingValues(settings: Array<[string, unknown]>): void {
  const byName = new Map(settings);
  if (byName.has('timezone')) checkTimeZone(byName.get('timezone') as string);
  if (byName.has('default_language')) checkDefaultLanguage(byName.get('default_language') as string);
  if (byName.has('notification_sound')) checkNotificationSound(byName.get('notification_sound') as string);
  if (byName.has('email_notifications_batching_period_seconds')) {
    checkBatchingPeriod(byName.get('email_notifications_batching_period_seconds') as number);
  }
}

export interface OwnAccountChange {
  full_name?: string;
  email?: string;
  old_password?: string;
  new_password?: string;
}

export function updateOwnSettings(ctx: Ctx, account: OwnAccountChange, settings: Array<[string, unknown]>): void {
  const { store, actor } = ctx;
  checkSettingValues(settings);

  if (account.new_password !== undefined) {
    if (account.old_password !== actor.password) throw badRequest('Wrong password!');
    checkPasswordStrength(account.new_password, ctx.server.rules);
  }
  // Compared as written: a change of case alone is a change (and then finds the caller's own account).
  let newEmail: string | undefined = account.email?.trim();
  if (newEmail === actor.delivery_email) newEmail = undefined;
  if (newEmail !== undefined) {
    checkOwnNewEmail(store, actor, newEmail);
    // Counted once the address passed its checks, as the real server counts it.
    if (ctx.server.rateLimiting) countEmailChange(ctx, actor);
  }
  let fullName: string | undefined;
  if (account.full_name !== undefined && account.full_name !== actor.full_name)
    fullName = checkFullName(account.full_name);

  if (account.new_password !== undefined) store.users.update(actor, { password: account.new_password });
  // The address changes only once the user follows the confirmation link.
  if (newEmail !== undefined) startEmailChange(ctx, actor, newEmail);
  if (fullName !== undefined && fullName !== actor.full_name) renameUser(ctx, actor, fullName);
  for (const [name, value] of settings) changeUserSetting(ctx, actor, name, value, true);
}

export function renameUser(ctx: WorldCtx, user: User, fullName: string): void {
  ctx.store.users.update(user, { full_name: fullName });
  ctx.events.publish(activeUserIds(ctx.store), {
    type: 'realm_user',
    op: 'update',
    person: { user_id: user.user_id, full_name: fullName },
  });
}
