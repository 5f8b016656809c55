// DELETE /streams/{id}: archiving a channel. Its messages and subscriptions stay (they can be
// read; nothing can be sent, nobody can subscribe); it stops being a default channel. The
// notification bot's notice goes in first, while the channel still takes messages. Clients
// with the archived_channels capability see an is_archived update, others a deletion.
import { badRequest } from '../../errors.js';
import type { Ctx } from '../context.js';
import { sendNotificationBotMessage } from '../messages/send.js';
import { metadataAudience } from './audience.js';
import { channelDeletionFor } from './deletion-event.js';
import { accessStreamForUpdate } from './update.js';
import { settingValue } from '../realm/setting-values.js';
import { subscriberIds } from './access.js';

export function archiveStream(ctx: Ctx, streamId: number): void {
  const { store } = ctx;
  const stream = accessStreamForUpdate(ctx, streamId);
  if (stream.is_archived) throw badRequest('Channel is already deactivated');
  // Everyone who could see the channel before it is archived hears of it.
  const audience = metadataAudience(store, stream);
  // The organization may turn channel event notices off (send_channel_events_messages, FL 434).
  if (settingValue(store, 'send_channel_events_messages') !== false) {
    sendNotificationBotMessage(ctx, {
      type: 'stream',
      to: stream.stream_id,
      topic: 'channel events',
      content: `Channel #**${stream.name}** has been archived.`,
      // Read for everyone (the real server's limit_unread_user_ids=set(), zulip/zulip#33269): an
      // unread message nobody can reach in an archived channel would linger in unread counts.
      readBy: subscriberIds(store, stream.stream_id),
    });
  }
  store.streams.update(stream, { is_archived: true });
  if (store.realm.default_stream_ids.includes(stream.stream_id)) {
    store.updateRealm({ default_stream_ids: store.realm.default_stream_ids.filter((id) => id !== stream.stream_id) });
  }
  const update = {
    type: 'stream',
    op: 'update',
    property: 'is_archived',
    value: true,
    stream_id: stream.stream_id,
    name: stream.name,
  };
  const removal = channelDeletionFor(store, [stream], ctx.clock.now());
  ctx.events.publish(audience, update, (_q, _u, queue) =>
    queue?.capabilities.archived_channels ? update : removal(queue),
  );
}
