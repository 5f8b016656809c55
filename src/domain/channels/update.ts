// PATCH /streams/{stream_id}. Every parameter is checked first (in the real server's order, so
// the first error reported is the same), then the changes are applied, each with its
// stream/update event to the users who can see the channel.
import { badRequest, mustBeAdmin } from '../../errors.js';
import type { Ctx, ParamsOf } from '../context.js';
import { channelMessages } from '../../store/store.js';
import type { Stream } from '../../store/state.js';
import { renderMarkdown } from '../render/markdown.js';
import { renderLevel } from '../render/render-level.js';
import { canAdministerChannel, hasContentAccess, invalidChannelId, streamByName } from './access.js';
import { isAdmin } from '../users/roles.js';
import { metadataAudience } from './audience.js';
import { invalidFolder } from './folders.js';
import { channelAlreadyExists, checkChannelName, oneLine } from './names.js';
import { checkCanSetTopicsPolicy, requireOwner, retentionDays } from './realm-permissions.js';
import { planGroupSettingChanges } from './update-group-settings.js';
import { planPrivacyChange, type Change } from './update-privacy.js';

/** The operation's parameters, typed from the description. */
type UpdateStreamParams = ParamsOf<'update-stream'>;

/**
 * The channel, if the user may administer it. Someone who can read the channel but not administer
 * it is told so; to anyone else the channel does not exist.
 */
export function accessStreamForUpdate(ctx: Ctx, streamId: number): Stream {
  const { store, actor } = ctx;
  const stream = store.streams.get(streamId);
  if (!stream) throw invalidChannelId();
  if (canAdministerChannel(store, actor, stream)) return stream;
  if (hasContentAccess(store, actor, stream))
    throw badRequest('You do not have permission to administer this channel.');
  throw invalidChannelId();
}

function publishUpdate(
  ctx: Ctx,
  stream: Stream,
  property: string,
  value: unknown,
  extra: Record<string, unknown> = {},
  name = stream.name,
): void {
  ctx.events.publish(metadataAudience(ctx.store, stream), {
    type: 'stream',
    op: 'update',
    property,
    value,
    ...extra,
    stream_id: stream.stream_id,
    name,
  });
}

export function updateStream(ctx: Ctx, p: UpdateStreamParams): void {
  const { store, actor } = ctx;
  const stream = accessStreamForUpdate(ctx, p.stream_id);
  const contentAccess = hasContentAccess(store, actor, stream);
  const changes: Change[] = planPrivacyChange(ctx, stream, p, contentAccess);

  if (p.message_retention_days !== undefined) {
    requireOwner(actor);
    const days = retentionDays(p.message_retention_days);
    changes.push(() => {
      store.streams.update(stream, { message_retention_days: days });
      publishUpdate(ctx, stream, 'message_retention_days', days);
    });
  }

  // Only unarchiving is supported: is_archived=true is accepted and changes nothing. The real
  // server refuses to unarchive a channel that is not archived, or a private one nobody could
  // read any more (no subscriber, deactivated users counted).
  if (p.is_archived === false) {
    if (!stream.is_archived) throw badRequest('Channel is not currently deactivated');
    if (stream.invite_only && !store.subscriptions.group('stream', stream.stream_id).size) {
      throw badRequest('Channel is private and have no subscribers');
    }
    changes.push(() => {
      store.streams.update(stream, { is_archived: false });
      publishUpdate(ctx, stream, 'is_archived', false);
    });
  }

  // Only administrators set it, channel administrators or not (from 507).
  if (p.default_push_notifications !== undefined) {
    if (!isAdmin(actor)) throw mustBeAdmin();
    const on = p.default_push_notifications;
    changes.push(() => {
      store.streams.update(stream, { default_push_notifications: on });
      publishUpdate(ctx, stream, 'default_push_notifications', on);
    });
  }

  if (p.topics_policy !== undefined) {
    checkCanSetTopicsPolicy(store, actor);
    if (
      p.topics_policy === 'empty_topic_only' &&
      channelMessages(store, stream.stream_id).some((m) => m.topic !== '')
    ) {
      throw badRequest(
        `To enable this configuration, all messages in this channel must be in the "${ctx.server.emptyTopicDisplayName}" topic. Consider renaming or deleting other topics.`,
      );
    }
    const policy = p.topics_policy;
    changes.push(() => {
      store.streams.update(stream, { topics_policy: policy });
      publishUpdate(ctx, stream, 'topics_policy', policy);
    });
  }

  if (p.description !== undefined) {
    const description = oneLine(p.description);
    const rendered = renderMarkdown(store, description, null, renderLevel(ctx.supports), ctx.clock.nowMs());
    changes.push(() => {
      store.streams.update(stream, { description, rendered_description: rendered });
      publishUpdate(ctx, stream, 'description', description, { rendered_description: rendered });
    });
  }

  if (p.new_name !== undefined) {
    const name = checkChannelName(p.new_name);
    if (name === stream.name) throw badRequest('Channel already has that name.');
    // Changing only the case of the name is allowed.
    if (name.toLowerCase() !== stream.name.toLowerCase() && streamByName(store, name)) throw channelAlreadyExists(name);
    changes.push(() => {
      const oldName = stream.name;
      store.streams.update(stream, { name });
      publishUpdate(ctx, stream, 'name', name, {}, oldName);
    });
  }

  if (p.folder_id !== undefined) {
    const folderId = p.folder_id;
    if (folderId !== null && !store.channelFolders.get(folderId)) throw invalidFolder();
    changes.push(() => {
      store.streams.update(stream, { folder_id: folderId });
      publishUpdate(ctx, stream, 'folder_id', folderId);
    });
  }

  changes.push(...planGroupSettingChanges(ctx, stream, p, contentAccess));
  for (const apply of changes) apply();
}
