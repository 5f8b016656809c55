// Views of the message endpoints clients use beyond the spec's operations (reading, editing,
// deleting, flags, rendering, reactions, typing), by operationId. Merged into views.ts.
import type { Ctx, ViewTable } from '../context.js';
import { renderMarkdown } from '../render/markdown.js';
import { accessMessage } from './access.js';
import { deleteMessage } from './delete.js';
import { doUpdateMessage } from './edit-apply.js';
import { checkUpdateMessage } from './edit-request.js';
import { fetchMessages } from './fetch.js';
import { updateMessageFlags } from './flags.js';
import { userFlags } from './history.js';
import { addReaction, removeReaction } from './reactions.js';
import { messageForUser, type ReadOptions } from './read-dict.js';
import { sendTyping } from './typing.js';

// Parameters arrive with the description's defaults filled in. The fallbacks below are for
// parameters newer than the request's feature level (absent then): the server's behaviour before
// them, which their defaults also describe.
const readOptions = (ctx: Ctx, p: Record<string, any>, clientGravatar: boolean): ReadOptions => ({
  applyMarkdown: p.apply_markdown ?? true,
  clientGravatar,
  allowEmptyTopicName: p.allow_empty_topic_name ?? false,
  emptyTopicDisplayName: ctx.server.emptyTopicDisplayName,
});

export const clientViews: ViewTable = {
  'get-messages': (ctx, p) => fetchMessages(ctx.store, ctx.actor, {
    ...readOptions(ctx, p, p.client_gravatar),
    anchor: p.anchor === undefined ? undefined : String(p.anchor),
    useFirstUnreadAnchor: p.use_first_unread_anchor,
    numBefore: p.num_before,
    numAfter: p.num_after,
    includeAnchor: p.include_anchor,
    narrow: p.narrow,
    messageIds: p.message_ids,
  }),

  'get-message': (ctx, p) => {
    const message = accessMessage(ctx.store, ctx.actor, p.message_id);
    const dict = messageForUser(ctx.store, message, userFlags(message, ctx.actor.user_id), readOptions(ctx, p, true));
    return { message: dict, raw_content: message.content };
  },

  'update-message': (ctx, p) => {
    const now = ctx.clock.now();
    const plan = checkUpdateMessage(ctx.store, ctx.actor, p.message_id, {
      content: p.content,
      topic: p.topic ?? p.subject,
      streamId: p.stream_id,
      propagateMode: p.propagate_mode,
      prevContentSha256: p.prev_content_sha256,
      emptyTopicDisplayName: ctx.server.emptyTopicDisplayName,
      supports: ctx.supports,
    }, now);
    doUpdateMessage(ctx.store, ctx.events, ctx.actor, plan, p.send_notification_to_old_thread ?? false, p.send_notification_to_new_thread ?? true, now);
    // The mock stores no uploads, so an edit never detaches any.
    return { detached_uploads: [] };
  },

  'delete-message': (ctx, p) => {
    deleteMessage(ctx.store, ctx.events, ctx.actor, p.message_id, ctx.clock.now());
  },

  'update-message-flags': (ctx, p) => {
    updateMessageFlags(ctx.store, ctx.events, ctx.actor, p.messages, p.op, p.flag);
    // The request's IDs, as the real server answers (deprecated field).
    return { messages: p.messages };
  },

  'render-message': (ctx, p) => ({ rendered: renderMarkdown(ctx.store, p.content, ctx.actor) }),

  'add-reaction': (ctx, p) => {
    addReaction(ctx.store, ctx.events, ctx.actor, p.message_id, {
      emojiName: p.emoji_name, emojiCode: p.emoji_code, reactionType: p.reaction_type,
    }, ctx.clock.now());
  },

  'remove-reaction': (ctx, p) => {
    removeReaction(ctx.store, ctx.events, ctx.actor, p.message_id, {
      emojiName: p.emoji_name, emojiCode: p.emoji_code, reactionType: p.reaction_type,
    });
  },

  'set-typing-status': (ctx, p) => {
    sendTyping(ctx.store, ctx.events, ctx.actor, {
      op: p.op,
      type: p.type,
      to: p.to,
      streamId: p.stream_id,
      topic: p.topic,
      directName: ctx.supports('typing_message_type_direct') ? 'direct' : 'private',
    });
  },
};
