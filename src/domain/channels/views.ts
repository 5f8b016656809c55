// Views of the channels operations, by operationId.
import type { ViewTable } from '../context.js';
import { createChannel, type CreateChannelParams } from './create.js';
import { streamEmailAddress } from './email-address.js';
import { updateChannelFolder, type UpdateFolderParams } from './folders.js';
import { updateStream, type UpdateStreamParams } from './update.js';

export const views: ViewTable = {
  'create-channel': (ctx, params) => createChannel(ctx, params as CreateChannelParams),
  'update-stream': (ctx, params) => updateStream(ctx, params as UpdateStreamParams),
  'update-channel-folder': (ctx, params) => updateChannelFolder(ctx, params as UpdateFolderParams),
  'get-stream-email-address': (ctx, params) => streamEmailAddress(ctx, params.stream_id, params.sender_id),
};
