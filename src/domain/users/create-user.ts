// POST /users: an administrator in can_create_users_group creates a member account. The new user
// joins the role:members system group (and role:fullmembers when the organization has no waiting
// period) and the default channels; everyone learns of them through a realm_user/add event, and
// the welcome bot greets the new account (realm/welcome-bot.ts).
import { randomBytes } from '../../random-pool.js';
import { badRequest } from '../../errors.js';
import type { Ctx, ParamsOf, WorldCtx } from '../context.js';
import type { Store } from '../../store/store.js';
import { Role, type User } from '../../store/state.js';
import { addSubscriptions } from '../channels/add-subscriptions.js';
import { userForClient } from './register-state.js';
import { queueHasPerUserVisibility } from './email-visibility-change.js';
import { holdsSetting, systemGroupId } from '../group-settings/membership.js';
import { activeUserIds, userByDeliveryEmail, userByEmail } from './access.js';
import { realmDefaultSettings } from './default-settings.js';
import { displayEmail, emailVisibilityOf } from './email-visibility.js';
import { requireAdmin } from './roles.js';
import { ROLE_GROUP } from './change-role.js';
import { checkFullName, isValidEmail } from './settings-values.js';
import { isStrongPassword } from './password-strength.js';
import { drawsNewAvatars, withDrawnAvatar } from './generated-avatar.js';
import { sendInitialDirectMessages } from '../realm/welcome-bot.js';

/** The operation's parameters, typed from the description. */
type CreateUserParams = ParamsOf<'create-user'>;

const ALPHANUMERIC = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

/** 32 alphanumeric characters, like the real server's API keys. */
export function newApiKey(): string {
  return [...randomBytes(32)].map((b) => ALPHANUMERIC[b % ALPHANUMERIC.length]).join('');
}

/** The ISO 8601 form the fixture's date_joined uses ("2026-01-15T09:04:00+00:00"). */
export const isoSeconds = (unix: number) => new Date(unix * 1000).toISOString().replace(/\.\d{3}Z$/, '+00:00');

/** Whether an account (by its API email or its real address, any case) already has this address. */
export function emailInUse(store: Store, email: string): boolean {
  const lower = email.toLowerCase();
  return !!userByEmail(store, lower) || !!userByDeliveryEmail(store, lower);
}

/**
 * The row of a new person's account (POST /users, an accepted invitation): a fresh API key, the
 * organization's default settings, no status, joined now on the world's clock.
 */
export function newHumanRow(
  world: Pick<WorldCtx, 'store' | 'clock'>,
  who: { email: string; fullName: string; password: string; role: User['role'] },
): User {
  const now = world.clock.now();
  const settings = realmDefaultSettings(world.store.realm);
  const userId = world.store.nextId('users');
  return {
    user_id: userId,
    // The API email follows the organization's default visibility for new users.
    email: displayEmail(
      world.store.realm,
      { user_id: userId, delivery_email: who.email },
      emailVisibilityOf({ settings }),
    ),
    delivery_email: who.email,
    full_name: who.fullName,
    api_key: newApiKey(),
    password: who.password,
    role: who.role,
    is_active: true,
    is_bot: false,
    bot_type: null,
    bot_owner_id: null,
    is_system_bot: false,
    date_joined: isoSeconds(now),
    last_active: now,
    avatar_version: 1,
    timezone: settings.timezone,
    settings,
    settings_edited: [],
    status: { status_text: '', emoji_name: '', emoji_code: '', reaction_type: '' },
    pending_email: null,
  };
}

function checkCanCreateUsers(ctx: Ctx): void {
  requireAdmin(ctx.actor);
  const setting = ctx.store.realm.can_create_users_group;
  if (setting === undefined || !holdsSetting(ctx.store, setting, ctx.actor.user_id)) {
    throw badRequest('User not authorized to create users');
  }
}

export function createUser(ctx: Ctx, p: CreateUserParams): { user_id: number } {
  const { store } = ctx;
  checkCanCreateUsers(ctx);
  const fullName = checkFullName(p.full_name);
  const email = p.email.trim();
  if (!isValidEmail(email)) throw badRequest('Bad name or username');
  if (emailInUse(store, email)) throw badRequest(`Email '${email}' already in use`);
  if (!isStrongPassword(p.password, ctx.server.rules)) throw badRequest('The password is too weak.');

  let row = newHumanRow(ctx, { email, fullName, password: p.password, role: Role.member });
  if (drawsNewAvatars(store, ctx.hasField('RegisterRealm', 'realm_default_avatar_source')))
    row = withDrawnAvatar(store, row);
  const user = insertAccount(ctx, row);
  for (const streamId of store.realm.default_stream_ids) {
    const stream = store.streams.get(streamId);
    if (stream && !stream.is_archived) addSubscriptions(ctx, stream, [user.user_id]);
  }
  sendInitialDirectMessages(ctx, user, {
    levelHasCustomText: ctx.hasField('RegisterRealm', 'realm_welcome_message_custom_text'),
  });
  return { user_id: user.user_id };
}

/**
 * A new account, human or bot: the row, its `realm_user` `add` to everyone (each viewer sees it as
 * register would show it: the real address to administrators), and its system groups.
 */
export function insertAccount(ctx: Ctx, row: User): User {
  const { store } = ctx;
  const user = store.users.insert(row);
  const personFor = (viewer: User) => userForClient(viewer, user, { clientGravatar: false });
  // Queues registered before feature level 163: one object for all, shaped by the organization's
  // setting as seen by the new account itself (the real server then formatted it with the new
  // user as the viewer, so delivery_email came only when that account's role could see addresses).
  let older: Record<string, unknown> | undefined;
  const olderEvent = () =>
    (older ??= {
      type: 'realm_user',
      op: 'add',
      person: userForClient(user, user, { clientGravatar: false, organization: store.realm }),
    });
  ctx.events.publish(
    activeUserIds(store),
    { type: 'realm_user', op: 'add', person: personFor(ctx.actor) },
    (_queue, viewerId, queue) =>
      queueHasPerUserVisibility(queue)
        ? { type: 'realm_user', op: 'add', person: personFor(store.users.get(viewerId) ?? user) }
        : olderEvent(),
  );
  joinSystemGroups(ctx, user);
  return user;
}

function joinSystemGroups(ctx: Ctx, user: User): void {
  const { store } = ctx;
  // A new account's own role's group (an invitation may make an administrator or a guest), and
  // role:fullmembers for a member when the organization has no waiting period.
  const fullMember = user.role === Role.member && store.realm.waiting_period_threshold === 0;
  const names = [ROLE_GROUP[user.role], ...(fullMember ? ['role:fullmembers'] : [])];
  for (const name of names) {
    const group = store.userGroups.get(systemGroupId(store, name))!;
    store.userGroups.update(group, { direct_members: [...group.direct_members, user.user_id] });
    ctx.events.publish(activeUserIds(store), {
      type: 'user_group',
      op: 'add_members',
      group_id: group.id,
      user_ids: [user.user_id],
    });
  }
}
