// PATCH /settings for the caller's own account: settings, display name, a new email address
// (pending until the link is followed, email-change-requests.ts; with --rate-limit, 2 an hour
// and 5 a day) and a password change. In the real server's order, which a client can see when a
// later part is refused: the setting values are checked first (nothing changes when one is
// refused); then the password is checked and changed, then the new address checked and its
// confirmation sent, then the name checked and changed, each part's effect kept when a later
// part is refused (json_change_settings runs in no transaction); then the settings, the time
// zone last.
import { badRequest } from '../../errors.js';
import type { Ctx, WorldCtx } from '../context.js';
import type { User } from '../../store/state.js';
import { activeUserIds } from './access.js';
import { changeUserSetting } from './setting-change.js';
import { checkOwnNewEmail, startEmailChange } from './email-change-requests.js';
import { countEmailChange } from './email-change-limit.js';
import { isAdmin } from './roles.js';
import { currentSetting } from '../realm/setting-values.js';
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
  const { store } = ctx;
  const me = () => store.users.get(ctx.actor.user_id)!;
  checkSettingValues(settings);

  if (account.new_password !== undefined) {
    if (account.old_password !== me().password) throw badRequest('Wrong password!');
    checkPasswordStrength(account.new_password, ctx.server.rules);
    store.users.update(me(), { password: account.new_password });
  }
  // Compared as written: a change of case alone is a change (and then finds the caller's own account).
  const newEmail = account.email?.trim();
  if (newEmail !== undefined && newEmail !== me().delivery_email) {
    checkOwnNewEmail(store, me(), newEmail);
    // Counted once the address passed its checks, as the real server counts it.
    if (ctx.server.rateLimiting) countEmailChange(ctx, me());
    // The address changes only once the user follows the confirmation link.
    startEmailChange(ctx, me(), newEmail);
  }
  if (account.full_name !== undefined && account.full_name !== me().full_name && mayRename(store, me())) {
    const fullName = checkFullName(account.full_name);
    if (fullName !== me().full_name) renameUser(ctx, me(), fullName);
  }
  // The time zone comes last, after the other settings (its own step in the real view).
  const ordered = [...settings.filter(([name]) => name !== 'timezone'), ...settings.filter(([n]) => n === 'timezone')];
  for (const [name, value] of ordered) changeUserSetting(ctx, me(), name, value, true);
}

/**
 * Whether the user may change their own name: not when the organization disabled name changes,
 * unless an administrator. A refused name change is ignored, not an error (the real server's
 * web app does not offer it, so only a client breaking the rule would send one).
 */
function mayRename(store: Ctx['store'], user: User): boolean {
  return currentSetting(store.realm, 'name_changes_disabled') !== true || isAdmin(user);
}

export function renameUser(ctx: WorldCtx, user: User, fullName: string): void {
  ctx.store.users.update(user, { full_name: fullName });
  ctx.events.publish(activeUserIds(ctx.store), {
    type: 'realm_user',
    op: 'update',
    person: { user_id: user.user_id, full_name: fullName },
  });
}
