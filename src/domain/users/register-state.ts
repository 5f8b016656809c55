// The `realm_user` part of the registration state: the client's own identity and the people and
// bots of the organization, in the real server's user-object shape.
import type { Store } from '../../store/store.js';
import { Role, type GroupSettingValue, type Realm, type User } from '../../store/state.js';
import { holdsSetting } from '../group-settings/membership.js';
import { avatarSource, avatarUrl } from './avatar.js';
import { isAdmin, isGuest, isOwner } from './roles.js';
import {
  canAccessDeliveryEmail,
  EmailVisibility,
  emailVisibilityOf,
  listsDeliveryEmails,
  organizationDisplayEmail,
  organizationEmailVisibility,
} from './email-visibility.js';

export interface UserStateOptions {
  clientGravatar: boolean;
  /** The user_avatar_url_field_optional capability: no avatar_url for long-idle users. */
  avatarOptional?: boolean;
  /** Mock-clock time, UNIX seconds (to tell long-idle users). */
  now?: number;
  /**
   * The organization, when its email_address_visibility decides for every person (servers before
   * feature level 163); absent: each account's own setting does.
   */
  organization?: Realm;
}

/** The real server treats users inactive this long as long-term idle (soft-deactivated). */
const LONG_TERM_IDLE_SECONDS = 180 * 86400;

/**
 * A client_gravatar client computes Gravatar URLs itself (null here), from the address, so only
 * for accounts that show their address to everyone (before feature level 163: only where the
 * organization shows every address, the real server turning client_gravatar off otherwise); an
 * uploaded avatar's URL is always given.
 */
function avatarFor(user: User, opts: UserStateOptions): string | null {
  const visibility = opts.organization ? organizationEmailVisibility(opts.organization) : emailVisibilityOf(user);
  return opts.clientGravatar && avatarSource(user) === 'G' && visibility === EmailVisibility.everyone
    ? null
    : avatarUrl(user);
}

/** The address fields of a user object: by the account's own setting, or (opts.organization) the organization's. */
function addressesFor(viewer: User, user: User, opts: UserStateOptions): Record<string, unknown> {
  const realm = opts.organization;
  if (!realm) {
    return { email: user.email, delivery_email: canAccessDeliveryEmail(viewer, user) ? user.delivery_email : null };
  }
  const email = organizationDisplayEmail(realm, user);
  return listsDeliveryEmails(realm, viewer) ? { email, delivery_email: user.delivery_email } : { email };
}

/** One element of realm_users / realm_non_active_users / cross_realm_bots. */
export function userForClient(viewer: User, user: User, opts: UserStateOptions): Record<string, unknown> {
  const out: Record<string, unknown> = {
    user_id: user.user_id,
    ...addressesFor(viewer, user, opts),
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
    avatar_url: avatarFor(user, opts),
    avatar_version: user.avatar_version,
  };
  if (user.is_bot) {
    out.bot_type = user.bot_type;
    out.bot_owner_id = user.bot_owner_id;
    if (user.is_system_bot) out.is_system_bot = true;
  } else {
    out.profile_data = structuredClone(user.profile_data ?? {});
  }
  if (opts.avatarOptional && opts.now !== undefined && opts.now - user.last_active > LONG_TERM_IDLE_SECONDS)
    delete out.avatar_url;
  return out;
}

/** The `realm_user` section: the people and bots of the organization, and the client's own identity. */
export function realmUserState(store: Store, actor: User, opts: UserStateOptions): Record<string, unknown> {
  const all = store.users.all();
  const ordinary = all.filter((u) => !u.is_system_bot);
  // The lists already say who is active: the real server leaves is_active out of their entries.
  const listed = (u: User) => {
    const dict = userForClient(actor, u, opts);
    delete dict.is_active;
    return dict;
  };
  const canCreate = (setting: GroupSettingValue) => holdsSetting(store, setting, actor.user_id);
  const canCreatePublic = canCreate(store.realm.can_create_public_channel_group);
  const canCreatePrivate = canCreate(store.realm.can_create_private_channel_group);
  const canCreateWebPublic =
    store.realm.web_public_streams_enabled &&
    store.realm.enable_spectator_access &&
    canCreate(store.realm.can_create_web_public_channel_group);
  const inviteGroup = store.realm.shown_settings?.can_invite_users_group as GroupSettingValue | undefined;
  return {
    realm_users: ordinary.filter((u) => u.is_active).map(listed),
    realm_non_active_users: ordinary.filter((u) => !u.is_active).map(listed),
    // The server's own bots come with their avatars' URLs whatever client_gravatar says.
    cross_realm_bots: all
      .filter((u) => u.is_system_bot)
      .map((u) => userForClient(actor, u, { ...opts, clientGravatar: false })),
    user_id: actor.user_id,
    // Before feature level 163 the organization's setting makes the API email (delivery_email
    // is the user's own address at every level).
    email: opts.organization ? organizationDisplayEmail(opts.organization, actor) : actor.email,
    delivery_email: actor.delivery_email,
    full_name: actor.full_name,
    is_owner: isOwner(actor),
    is_admin: isAdmin(actor),
    is_moderator: actor.role === Role.moderator,
    is_guest: isGuest(actor),
    // The user's own URLs are always given in full.
    avatar_source: avatarSource(actor),
    avatar_url: avatarUrl(actor),
    avatar_url_medium: avatarUrl(actor, true),
    can_create_streams: canCreatePublic || canCreatePrivate || canCreateWebPublic,
    can_create_public_streams: canCreatePublic,
    can_create_private_streams: canCreatePrivate,
    can_create_web_public_streams: canCreateWebPublic,
    can_subscribe_other_users: canCreate(store.realm.can_add_subscribers_group),
    can_invite_others_to_realm: inviteGroup !== undefined && canCreate(inviteGroup),
  };
}
