// The privacy part of PATCH /streams/{id}: is_private, is_web_public,
// history_public_to_subscribers and is_default_stream, checked together as the proposed new state
// (the real server's rules), returned as a change to apply once every check has passed.
import { badRequest, mustBeAdmin } from '../../errors.js';
import type { Ctx } from '../context.js';
import type { GroupSettingValue, Stream } from '../../store/state.js';
import { isAdmin } from '../users/roles.js';
import { metadataAudience } from './audience.js';
import { checkProtectedHistoryTopicGroup } from './group-settings.js';
import { normalizeGroupSetting } from '../group-settings/values.js';
import { checkCanCreate, checkCanMakeWebPublic } from './realm-permissions.js';
import { setDefaultStreams } from './default-streams.js';

export interface PrivacyParams {
  is_private?: boolean;
  is_web_public?: boolean;
  history_public_to_subscribers?: boolean;
  is_default_stream?: boolean;
  can_create_topic_group?: { new: GroupSettingValue };
}

export type Change = () => void;

export function planPrivacyChange(ctx: Ctx, stream: Stream, p: PrivacyParams, contentAccess: boolean): Change[] {
  const { store, actor } = ctx;
  const isPrivate = p.is_private ?? stream.invite_only;
  const webPublic = p.is_web_public ?? stream.is_web_public;
  const isDefault = p.is_default_stream ?? store.realm.default_stream_ids.includes(stream.stream_id);
  // Making a channel private without saying otherwise protects its history; public makes it public.
  const history =
    p.history_public_to_subscribers ??
    (p.is_private !== undefined ? !p.is_private : stream.history_public_to_subscribers);

  if (webPublic && (!history || isPrivate)) throw badRequest('Invalid parameters');
  if (!isPrivate && !history) throw badRequest('Invalid parameters');
  if (isPrivate && isDefault) throw badRequest('A default channel cannot be private.');
  if (!isPrivate && store.realm.moderation_request_channel_id === stream.stream_id) {
    throw badRequest('Moderation request channel must be private.');
  }
  if (p.is_private !== undefined && !contentAccess) throw badRequest('Channel content access is required.');
  if (p.is_private !== undefined) checkCanCreate(store, actor, p.is_private);
  if (p.is_web_public) checkCanMakeWebPublic(store, actor);
  if (p.is_private !== undefined || p.history_public_to_subscribers !== undefined || p.can_create_topic_group) {
    const topicGroup = p.can_create_topic_group
      ? normalizeGroupSetting(store, p.can_create_topic_group.new)
      : stream.can_create_topic_group;
    checkProtectedHistoryTopicGroup(store, isPrivate, history, topicGroup);
  }
  if (p.is_default_stream !== undefined && !isAdmin(actor)) throw mustBeAdmin();

  const changes: Change[] = [];
  const touched =
    p.is_private !== undefined || p.is_web_public !== undefined || p.history_public_to_subscribers !== undefined;
  if (touched) changes.push(() => applyPrivacy(ctx, stream, isPrivate, webPublic, history));
  if (isDefault !== store.realm.default_stream_ids.includes(stream.stream_id))
    changes.push(() => applyDefault(ctx, stream, isDefault));
  return changes;
}

/** One stream/update event per changed property, each carrying all three privacy fields. */
function applyPrivacy(ctx: Ctx, stream: Stream, inviteOnly: boolean, webPublic: boolean, history: boolean): void {
  const { store } = ctx;
  const before = {
    invite_only: stream.invite_only,
    is_web_public: stream.is_web_public,
    history_public_to_subscribers: stream.history_public_to_subscribers,
  };
  const audienceBefore = metadataAudience(store, stream);
  store.streams.update(stream, {
    invite_only: inviteOnly,
    is_web_public: webPublic,
    history_public_to_subscribers: history,
  });
  const audience = [...new Set([...audienceBefore, ...metadataAudience(store, stream)])];
  for (const property of ['invite_only', 'history_public_to_subscribers', 'is_web_public'] as const) {
    if (before[property] === stream[property]) continue;
    ctx.events.publish(audience, {
      type: 'stream',
      op: 'update',
      property,
      value: stream[property],
      invite_only: stream.invite_only,
      history_public_to_subscribers: stream.history_public_to_subscribers,
      is_web_public: stream.is_web_public,
      stream_id: stream.stream_id,
      name: stream.name,
    });
  }
}

function applyDefault(ctx: Ctx, stream: Stream, isDefault: boolean): void {
  const ids = ctx.store.realm.default_stream_ids.filter((id) => id !== stream.stream_id);
  setDefaultStreams(ctx, isDefault ? [...ids, stream.stream_id] : ids);
}
