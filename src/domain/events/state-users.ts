// The `realm_user` part of the registration state: the client's own identity and the people and
// bots of the organization, in the real server's user-object shape.
import type { Store } from '../../store/store.js';
import type { User } from '../../store/state.js';
import { avatarUrl } from '../users/avatar.js';
import { isAdmin, isGuest, isModerator, isOwner } from '../users/roles.js';

export interface UserStateOptions {
  clientGravatar: boolean;
}

/** Every avatar is a Gravatar, which a client_gravatar client computes itself (null here). */
function avatarFor(user: User, clientGravatar: boolean): string | null {
  return clientGravatar ? null : avatarUrl(user);
}

/** One element of realm_users / realm_non_active_users / cross_realm_bots. */
export function userForClient(viewer: User, user: User, opts: UserStateOptions): Record<string, unknown> {
  // Real email addresses are visible to administrators and to the user themselves.
  const seesEmail = isAdmin(viewer) || viewer.user_id === user.user_id;
  const out: Record<string, unknown> = {
    user_id: user.user_id,
    email: user.email,
    delivery_email: seesEmail ? user.delivery_email : null,
    full_name: user.full_name,
    date_joined: user.date_joined,
    is_active: user.is_active,
    is_owner: isOwner(user),
    is_admin: isAdmin(user),
    is_guest: isGuest(user),
    is_billing_admin: false,
    role: user.role,
    is_bot: user.is_bot,
    timezone: user.timezone,
    avatar_url: avatarFor(user, opts.clientGravatar),
    avatar_version: user.avatar_version,
  };
  if (user.is_bot) {
    out.bot_type = user.bot_type;
    out.bot_owner_id = user.bot_owner_id;
    if (user.is_system_bot) out.is_system_bot = true;
  } else {
    out.profile_data = {};
  }
  return out;
}

export function realmUserState(store: Store, actor: User, opts: UserStateOptions): Record<string, unknown> {
  const all = store.users.all();
  const ordinary = all.filter((u) => !u.is_system_bot);
  return {
    realm_users: ordinary.filter((u) => u.is_active).map((u) => userForClient(actor, u, opts)),
    realm_non_active_users: ordinary.filter((u) => !u.is_active).map((u) => userForClient(actor, u, opts)),
    cross_realm_bots: all.filter((u) => u.is_system_bot).map((u) => userForClient(actor, u, opts)),
    user_id: actor.user_id,
    email: actor.email,
    delivery_email: actor.delivery_email,
    full_name: actor.full_name,
    is_owner: isOwner(actor),
    is_admin: isAdmin(actor),
    is_moderator: isModerator(actor),
    is_guest: isGuest(actor),
    is_billing_admin: false,
    role: actor.role,
    avatar_url: avatarFor(actor, opts.clientGravatar),
    avatar_version: actor.avatar_version,
  };
}

/** `realm_bot`: the bots the client's user owns (all bots, for administrators). */
export function realmBotState(store: Store, actor: User, opts: UserStateOptions): Record<string, unknown> {
  const bots = store.users.filter((u) => u.is_bot && !u.is_system_bot && (isAdmin(actor) || u.bot_owner_id === actor.user_id));
  return {
    realm_bots: bots.map((b) => ({
      user_id: b.user_id,
      email: b.email,
      full_name: b.full_name,
      bot_type: b.bot_type,
      is_active: b.is_active,
      api_key: b.api_key,
      avatar_url: avatarFor(b, opts.clientGravatar),
      default_sending_stream: null,
      default_events_register_stream: null,
      default_all_public_streams: false,
      owner_id: b.bot_owner_id,
      services: [],
    })),
  };
}
