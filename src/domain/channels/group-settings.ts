// A channel's permission group settings (spec 2.1): their defaults at creation, which values each
// accepts, and the rules that tie them to other channel settings. The checks of any group-setting
// value are group-settings/values.ts.
import { incompatibleParameters } from '../../errors.js';
import type { Store } from '../../store/store.js';
import type { GroupSettingValue, Stream, User } from '../../store/state.js';
import { systemGroupId } from '../group-settings/membership.js';
import { checkGroupSettingValueAllowing } from '../group-settings/values.js';

export type ChannelGroupSetting =
  | 'can_add_subscribers_group'
  | 'can_remove_subscribers_group'
  | 'can_administer_channel_group'
  | 'can_delete_any_message_group'
  | 'can_delete_own_message_group'
  | 'can_move_messages_out_of_channel_group'
  | 'can_move_messages_within_channel_group'
  | 'can_send_message_group'
  | 'can_subscribe_group'
  | 'can_create_topic_group'
  | 'can_resolve_topics_group';

interface SettingRule {
  /** Whether role:everyone (which includes guests) may hold it. */
  allowEveryone: boolean;
  /** Changing it needs content access to the channel, not only metadata access. */
  needsContentAccess: boolean;
  /** Value for a new channel when the request does not give one; 'creator' = the creator alone. */
  defaultValue: 'role:nobody' | 'role:everyone' | 'role:administrators' | 'creator';
}

export const CHANNEL_GROUP_SETTINGS: Record<ChannelGroupSetting, SettingRule> = {
  can_add_subscribers_group: { allowEveryone: false, needsContentAccess: true, defaultValue: 'role:nobody' },
  can_remove_subscribers_group: { allowEveryone: true, needsContentAccess: false, defaultValue: 'role:administrators' },
  can_administer_channel_group: { allowEveryone: false, needsContentAccess: true, defaultValue: 'creator' },
  can_delete_any_message_group: { allowEveryone: false, needsContentAccess: true, defaultValue: 'role:nobody' },
  can_delete_own_message_group: { allowEveryone: true, needsContentAccess: true, defaultValue: 'role:everyone' },
  can_move_messages_out_of_channel_group: {
    allowEveryone: false,
    needsContentAccess: true,
    defaultValue: 'role:nobody',
  },
  can_move_messages_within_channel_group: {
    allowEveryone: false,
    needsContentAccess: true,
    defaultValue: 'role:nobody',
  },
  can_send_message_group: { allowEveryone: true, needsContentAccess: false, defaultValue: 'role:everyone' },
  can_subscribe_group: { allowEveryone: false, needsContentAccess: true, defaultValue: 'role:nobody' },
  can_create_topic_group: { allowEveryone: true, needsContentAccess: true, defaultValue: 'role:everyone' },
  can_resolve_topics_group: { allowEveryone: false, needsContentAccess: true, defaultValue: 'role:nobody' },
};

export const CHANNEL_GROUP_SETTING_NAMES = Object.keys(CHANNEL_GROUP_SETTINGS) as ChannelGroupSetting[];

/** Checks a requested value against the setting's rules and returns it normalised. */
export function checkGroupSettingValue(
  store: Store,
  setting: ChannelGroupSetting,
  value: GroupSettingValue,
): GroupSettingValue {
  return checkGroupSettingValueAllowing(store, setting, CHANNEL_GROUP_SETTINGS[setting].allowEveryone, value);
}

/** The value a new channel gets when the request leaves the setting out. */
export function defaultGroupSetting(store: Store, setting: ChannelGroupSetting, creator: User): GroupSettingValue {
  const d = CHANNEL_GROUP_SETTINGS[setting].defaultValue;
  if (d === 'creator') return { direct_members: [creator.user_id], direct_subgroups: [] };
  return systemGroupId(store, d);
}

/** Private channels with protected history need role:everyone in can_create_topic_group. */
export function checkProtectedHistoryTopicGroup(
  store: Store,
  inviteOnly: boolean,
  historyPublic: boolean,
  canCreateTopic: GroupSettingValue,
): void {
  if (!inviteOnly || historyPublic) return;
  if (canCreateTopic === systemGroupId(store, 'role:everyone')) return;
  throw incompatibleParameters(['history_public_to_subscribers', 'can_create_topic_group']);
}

/** The legacy stream_post_policy that matches can_send_message_group (1 when no system group fits). */
export function streamPostPolicy(store: Store, stream: Stream): number {
  const value = stream.can_send_message_group;
  if (typeof value !== 'number') return 1;
  const name = store.userGroups.get(value)?.name;
  return (
    ({ 'role:administrators': 2, 'role:fullmembers': 3, 'role:moderators': 4 } as Record<string, number>)[name ?? ''] ??
    1
  );
}
