// POST /typing: "user is typing" notifications while composing. Direct: to every participant
// (the sender included); channel: to the channel's subscribers, unless it has more than 100 of
// them. Only users whose receives_typing_notifications is on get the event.
import { badRequest } from '../../errors.js';
import type { Store } from '../../store/store.js';
import type { User } from '../../store/state.js';
import type { WorldCtx } from '../context.js';
import { accessStreamContentById, subscriberIds } from '../channels/access.js';
import { checkChannelSendAccess } from '../messages/check.js';
import { apiEmailsByQueueLevel, organizationDisplayEmail } from '../users/email-visibility.js';

/** The real server's MAX_STREAM_SIZE_FOR_TYPING_NOTIFICATIONS. */
const MAX_CHANNEL_SIZE_FOR_TYPING = 100;

export interface TypingInput {
  op: 'start' | 'stop';
  type: string;
  to?: number[];
  streamId?: number;
  topic?: string;
  /** Typing events call direct messages 'direct' from FL 215, 'private' before. */
  directName: 'direct' | 'private';
  /** Below FL 215: `to` is required for both kinds and names a channel notification's channel. */
  channelInTo: boolean;
}

/** The older form (below FL 215): the channel is `to`'s only element, an empty list refused first. */
function channelFromTo(input: TypingInput): TypingInput {
  if (!input.to!.length) throw badRequest("Empty 'to' list");
  if (input.type !== 'stream' && input.type !== 'channel') return input;
  if (input.to!.length > 1) throw badRequest('Cannot send to multiple streams');
  return { ...input, streamId: input.to![0] };
}

const receivesTyping = (store: Store, id: number) => {
  const u = store.users.get(id);
  return !!u && u.is_active && u.settings.receives_typing_notifications === true;
};

/** Below feature level 163 a person is named by the API email the organization's setting gives. */
const organizationAddress = (store: Store, u: User) => ({
  user_id: u.user_id,
  email: organizationDisplayEmail(store.realm, u),
});

export function sendTyping({ store, events }: WorldCtx, user: User, given: TypingInput): void {
  const input = given.channelInTo ? channelFromTo(given) : given;
  const sender = { user_id: user.user_id, email: user.email };
  if (input.type === 'stream' || input.type === 'channel') {
    if (input.streamId === undefined) throw badRequest('Missing stream_id');
    if (input.topic === undefined) throw badRequest('Missing topic');
    if (user.settings.send_stream_typing_notifications === false) {
      throw badRequest('User has disabled typing notifications for channel messages');
    }
    const stream = accessStreamContentById(store, user, input.streamId);
    checkChannelSendAccess(store, user, stream);
    const subscribers = subscriberIds(store, stream.stream_id);
    if (subscribers.length > MAX_CHANNEL_SIZE_FOR_TYPING) return;
    const event = {
      type: 'typing',
      op: input.op,
      message_type: 'stream',
      sender,
      stream_id: stream.stream_id,
      topic: input.topic,
    };
    const older = () => ({ ...event, sender: organizationAddress(store, user) });
    events.publish(
      subscribers.filter((id) => receivesTyping(store, id)),
      event,
      apiEmailsByQueueLevel(event, older),
    );
    return;
  }
  if (input.to === undefined) throw badRequest("Missing 'to' argument");
  if (!input.to.length) throw badRequest("Empty 'to' list");
  if (user.settings.send_private_typing_notifications === false) {
    throw badRequest('User has disabled typing notifications for direct messages');
  }
  const ids = [...new Set([...input.to, user.user_id])];
  const users = ids.map((id) => {
    const u = store.users.get(id);
    // A partial list would point at the wrong conversation: refuse the whole request.
    if (!u) throw badRequest(`Invalid user ID ${id}`);
    return u;
  });
  const event = {
    type: 'typing',
    op: input.op,
    message_type: input.directName,
    sender,
    recipients: users.map((u) => ({ user_id: u.user_id, email: u.email })),
  };
  const older = () => ({
    ...event,
    sender: organizationAddress(store, user),
    recipients: users.map((u) => organizationAddress(store, u)),
  });
  events.publish(
    ids.filter((id) => receivesTyping(store, id)),
    event,
    apiEmailsByQueueLevel(event, older),
  );
}
