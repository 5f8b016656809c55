// Organization-level permissions that channel creation and channel updates consult.
import { ApiError, badRequest, insufficientPermission } from '../../errors.js';
import type { Store } from '../../store/store.js';
import type { GroupSettingValue, User } from '../../store/state.js';
import { settingValue } from '../realm/setting-values.js';
import { holdsSetting } from '../group-settings/membership.js';
import { isAdmin, isOwner } from '../users/roles.js';

const mustBeOwner = () => new ApiError('UNAUTHORIZED_PRINCIPAL', 'Must be an organization owner');

/** May create (or turn a channel into) a private or a public channel. */
export function checkCanCreate(store: Store, user: User, inviteOnly: boolean): void {
  const setting = inviteOnly
    ? store.realm.can_create_private_channel_group
    : store.realm.can_create_public_channel_group;
  if (!holdsSetting(store, setting, user.user_id)) throw insufficientPermission();
}

/** Web-public channels need the server setting, spectator access and can_create_web_public_channel_group. */
export function checkCanMakeWebPublic(store: Store, user: User): void {
  if (!store.realm.web_public_streams_enabled || !store.realm.enable_spectator_access) {
    throw badRequest('Web-public channels are not enabled.');
  }
  if (!holdsSetting(store, store.realm.can_create_web_public_channel_group, user.user_id))
    throw insufficientPermission();
}

/**
 * Setting a channel's topics policy: organization administrators, and the holders of
 * can_set_topics_policy_group (FL 392; on a channel they administer, which the update checks first).
 */
export function checkCanSetTopicsPolicy(store: Store, user: User): void {
  if (isAdmin(user)) return;
  const setting = settingValue(store, 'can_set_topics_policy_group') as GroupSettingValue;
  if (!holdsSetting(store, setting, user.user_id)) throw insufficientPermission();
}

/**
 * Changing a channel's message deletion permissions: organization administrators, and the holders
 * of can_set_delete_message_policy_group (FL 407; moderators in a new organization).
 */
export function checkCanSetDeleteMessagePolicy(store: Store, user: User): void {
  if (isAdmin(user)) return;
  const setting = settingValue(store, 'can_set_delete_message_policy_group') as GroupSettingValue;
  if (!holdsSetting(store, setting, user.user_id)) throw insufficientPermission();
}

/** message_retention_days as stored: `realm_default` is null, `unlimited` is -1. */
export function retentionDays(value: string | number): number | null {
  return value === 'realm_default' ? null : value === 'unlimited' ? -1 : (value as number);
}

export function requireOwner(user: User): void {
  if (!isOwner(user)) throw mustBeOwner();
}
