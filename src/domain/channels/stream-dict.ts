// A channel as the API shows it (in subscription objects and in stream events).
import type { Store } from '../../store/store.js';
import type { Stream } from '../../store/state.js';
import type { ChannelActivity } from './activity.js';
import { CHANNEL_GROUP_SETTING_NAMES, streamPostPolicy } from './group-settings.js';
import { groupSettingForApi } from '../group-settings/values.js';
import { subscriberIds } from './access.js';

export function streamToDict(store: Store, stream: Stream, activity: ChannelActivity): Record<string, unknown> {
  const postPolicy = streamPostPolicy(store, stream);
  const dict: Record<string, unknown> = {
    stream_id: stream.stream_id,
    name: stream.name,
    description: stream.description,
    rendered_description: stream.rendered_description,
    date_created: stream.date_created,
    creator_id: stream.creator_id,
    invite_only: stream.invite_only,
    is_archived: stream.is_archived,
    is_web_public: stream.is_web_public,
    is_announcement_only: postPolicy === 2,
    stream_post_policy: postPolicy,
    message_retention_days: stream.message_retention_days,
    history_public_to_subscribers: stream.history_public_to_subscribers,
    first_message_id: activity.firstMessageId(stream.stream_id),
    folder_id: stream.folder_id,
    topics_policy: stream.topics_policy,
    is_recently_active: activity.isRecentlyActive(stream),
    default_push_notifications: stream.default_push_notifications === true,
    stream_weekly_traffic: activity.weeklyTraffic(stream),
    subscriber_count: subscriberIds(store, stream.stream_id).length,
  };
  for (const name of CHANNEL_GROUP_SETTING_NAMES) dict[name] = groupSettingForApi(store, stream[name]);
  return dict;
}
