// Views of the channels operations, by operationId.
import type { ViewTable } from '../context.js';
import { createChannel } from './create.js';
import { streamEmailAddress } from './email-address.js';
import { updateChannelFolder } from './folders.js';
import { createChannelFolder, reorderChannelFolders } from './folder-create-reorder.js';
import { updateStream } from './update.js';
import { listChannelFolders } from './list-folders.js';
import { getStreamById, getStreamId, listStreams } from './list-streams.js';
import { streamTopics } from './topic-history.js';
import { channelSubscribers } from './subscribers.js';
import { archiveStream } from './archive.js';
import { deleteTopic } from '../messages/delete-topic.js';
import { addDefaultStream, removeDefaultStream } from './default-streams.js';
import {
  createDefaultStreamGroup,
  removeDefaultStreamGroup,
  updateDefaultStreamGroup,
  updateDefaultStreamGroupStreams,
} from './default-stream-groups.js';

export const views: ViewTable = {
  'create-channel': (ctx, params) => createChannel(ctx, params),
  'update-stream': (ctx, params) => updateStream(ctx, params),
  'update-channel-folder': (ctx, params) => updateChannelFolder(ctx, params),
  'create-channel-folder': (ctx, p) => createChannelFolder(ctx, { name: p.name, description: p.description }),
  'patch-channel-folders': (ctx, p) => reorderChannelFolders(ctx, p.order),
  'get-stream-email-address': (ctx, params) => streamEmailAddress(ctx, params.stream_id, params.sender_id),
  'get-streams': (ctx, params) => listStreams(ctx, params),
  'get-stream-by-id': (ctx, params) => getStreamById(ctx, params.stream_id),
  'get-stream-id': (ctx, params) => getStreamId(ctx, params.stream),
  'get-stream-topics': (ctx, params) => streamTopics(ctx, params.stream_id, params.allow_empty_topic_name),
  'get-subscribers': (ctx, params) => channelSubscribers(ctx, ctx.actor, params),
  'archive-stream': (ctx, params) => archiveStream(ctx, params.stream_id),
  'delete-topic': (ctx, params) => deleteTopic(ctx, params.stream_id, params.topic_name),
  'add-default-stream': (ctx, params) => addDefaultStream(ctx, ctx.actor, params),
  'remove-default-stream': (ctx, params) => removeDefaultStream(ctx, ctx.actor, params),
  'create-default-stream-group': (ctx, params) => createDefaultStreamGroup(ctx, ctx.actor, params),
  'update-default-stream-group-info': (ctx, params) => updateDefaultStreamGroup(ctx, ctx.actor, params),
  'update-default-stream-group-streams': (ctx, params) => updateDefaultStreamGroupStreams(ctx, ctx.actor, params),
  'remove-default-stream-group': (ctx, params) => removeDefaultStreamGroup(ctx, ctx.actor, params),
  'get-channel-folders': (ctx, params) => listChannelFolders(ctx, params.include_archived),
};
