// Views of the typing notifications, by operationId: composing (POST /typing) and editing a
// message (POST /messages/{id}/typing, and its FL 351-360 form POST /message_edit_typing).
import type { ViewTable } from '../context.js';
import { sendEditTyping } from './edit-typing.js';
import { sendTyping } from './typing.js';

export const views: ViewTable = {
  'set-typing-status': (ctx, p) => {
    sendTyping(ctx, ctx.actor, {
      op: p.op,
      type: p.type,
      to: p.to,
      streamId: p.stream_id,
      topic: p.topic,
      directName: ctx.supports('typing_message_type_direct') ? 'direct' : 'private',
      channelInTo: !ctx.supports('typing_channel_by_stream_id'),
    });
  },
  'set-typing-status-for-message-edit': (ctx, p) => {
    sendEditTyping(ctx, ctx.actor, { messageId: p.message_id, op: p.op });
  },
  // FL 351-360: the same notification, with message_id in the body.
  'set-typing-status-for-message-edit-legacy': (ctx, p) => {
    sendEditTyping(ctx, ctx.actor, { messageId: p.message_id, op: p.op });
  },
};
