// What POST /messages answers about the message it sent (from 508): the web app's URL of the
// message, and the Markdown link "Copy link to message" makes of it. The channel's name is left
// out of the URL (and the link is the bare URL) when the sender may not see the channel's
// metadata, so that a bot allowed to post but not to read learns nothing new.
import type { Store } from '../../store/store.js';
import type { Message, User } from '../../store/state.js';
import { hasMetadataAccess } from '../channels/access.js';
import { directMessageUrl, messageUrl, messageUrlByChannelId } from '../render/narrow-urls.js';

export function sentMessageLinks(
  store: Store,
  sender: User,
  message: Message,
  emptyTopicDisplayName: string,
): { message_url: string; message_link: string } {
  const base = store.realm.url;
  if (message.type !== 'stream') {
    const url = base + directMessageUrl(message.recipient_ids, message.id);
    return { message_url: url, message_link: url };
  }
  const stream = store.streams.get(message.stream_id!)!;
  if (!hasMetadataAccess(store, sender, stream)) {
    const url = base + messageUrlByChannelId(stream.stream_id, message.topic, message.id);
    return { message_url: url, message_link: url };
  }
  const url = base + messageUrl(stream.stream_id, stream.name, message.topic, message.id);
  const topic = message.topic === '' ? emptyTopicDisplayName : message.topic;
  return { message_url: url, message_link: `[#${stream.name} > ${topic} @ 💬](${url})` };
}
