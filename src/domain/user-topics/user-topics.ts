// Personal topic visibility policies: POST /user_topics and the deprecated
// PATCH /users/me/subscriptions/muted_topics. A policy may be set whether or not the topic has
// messages; setting it again, or removing one that is not set, is not an error (FL 169).
import { badRequest, incompatibleParameters } from '../../errors.js';
import type { Ctx, ParamsOf } from '../context.js';
import type { Stream } from '../../store/state.js';
import { userTopicKey } from '../../store/store.js';
import { setTopicVisibility, Visibility } from './set-visibility.js';
import { accessStreamContentById, hasContentAccess, invalidChannelId, streamByName } from '../channels/access.js';

type UserTopicParams = ParamsOf<'update-user-topic'>;

export function updateUserTopic(ctx: Ctx, p: UserTopicParams): void {
  // The empty-topic display name stands for the empty topic.
  const topic = p.topic === ctx.server.emptyTopicDisplayName ? '' : p.topic;
  let stream: Stream;
  if (p.visibility_policy === 0) {
    // Removing a policy only needs the channel to exist: access may have been lost since.
    const found = ctx.store.streams.get(p.stream_id);
    if (!found) throw invalidChannelId();
    stream = found;
  } else {
    stream = accessStreamContentById(ctx.store, ctx.actor, p.stream_id);
  }
  setTopicVisibility(ctx, ctx.actor.user_id, { streamId: stream.stream_id, topic, policy: p.visibility_policy });
}

type MuteTopicParams = ParamsOf<'mute-topic'>;

function streamForMute(ctx: Ctx, p: MuteTopicParams): Stream {
  const { store, actor } = ctx;
  if (p.stream_id !== undefined) return accessStreamContentById(store, actor, p.stream_id);
  const error = badRequest(`Invalid channel name '${p.stream}'`);
  const stream = streamByName(store, p.stream!.trim());
  if (!stream || stream.is_archived || !hasContentAccess(store, actor, stream)) throw error;
  return stream;
}

function policyOf(ctx: Ctx, stream: Stream, topic: string): number {
  return ctx.store.userTopics.get(userTopicKey(ctx.actor.user_id, stream.stream_id, topic))?.visibility_policy ?? 0;
}

export function muteTopic(ctx: Ctx, p: MuteTopicParams): void {
  if (p.stream_id === undefined && p.stream === undefined) throw badRequest("Missing 'stream_id' argument");
  if (p.stream_id !== undefined && p.stream !== undefined) throw incompatibleParameters(['stream_id', 'stream']);
  if (p.op === 'add') {
    const stream = streamForMute(ctx, p);
    // Before FL 169 muting a muted topic was an error.
    if (!ctx.supports('mute_topic_idempotent') && policyOf(ctx, stream, p.topic) === Visibility.muted)
      throw badRequest('Topic already muted');
    setTopicVisibility(ctx, ctx.actor.user_id, {
      streamId: stream.stream_id,
      topic: p.topic,
      policy: Visibility.muted,
    });
    return;
  }
  // Unmuting only needs the channel to exist; an unknown one means there was nothing muted.
  const stream =
    p.stream_id !== undefined ? ctx.store.streams.get(p.stream_id) : streamByName(ctx.store, p.stream!.trim());
  if (!stream) throw badRequest('Topic is not muted');
  // Before FL 169 unmuting a topic that was not muted was an error.
  if (!ctx.supports('mute_topic_idempotent') && policyOf(ctx, stream, p.topic) !== Visibility.muted)
    throw badRequest('Topic is not muted');
  setTopicVisibility(ctx, ctx.actor.user_id, { streamId: stream.stream_id, topic: p.topic, policy: Visibility.none });
}
