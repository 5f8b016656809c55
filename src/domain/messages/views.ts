// Views of the message operations, by operationId: parameters in, actions called with
// (world, actor, input), the operation's own response fields out.
import { relinkAttachments } from '../uploads/links.js';
import type { Ctx, ViewTable } from '../context.js';
import { renderMarkdown } from '../render/markdown.js';
import { accessMessage } from './access.js';
import { deleteMessage } from './delete.js';
import { doUpdateMessage } from './edit-apply.js';
import { checkUpdateMessage } from './edit-request.js';
import { messageHistory } from './edit-history.js';
import { fetchMessages, narrowWindow } from './fetch.js';
import { updateMessageFlags, type FlagOutcome } from './flags.js';
import { markAllAsRead, markChannelAsRead } from './mark-read.js';
import { userFlags } from './history.js';
import { messagesMatchingNarrow } from './matches-narrow.js';
import { addReaction, removeReaction } from './reactions.js';
import { unicodeEmojiNames } from '../emoji/emoji-data.js';
import { renderLevel } from '../render/render-level.js';
import { messageForUser, type ReadOptions } from './read-dict.js';
import { visibilityPolicy } from './edit-history.js';
import { readReceipts } from './read-receipts.js';
import { reportMessage } from './report.js';
import { sendMessage } from './send.js';
import { sentMessageLinks } from './sent-links.js';
import { organizationClientGravatar } from '../users/email-visibility.js';

// Parameters arrive with the description's defaults filled in. The fallbacks below are for
// parameters newer than the request's feature level (absent then): the server's behaviour before
// them, which their defaults also describe.
const readOptions = (
  ctx: Ctx,
  p: { apply_markdown?: boolean; allow_empty_topic_name?: boolean },
  clientGravatar: boolean,
): ReadOptions => {
  // Below 163 the organization's email_address_visibility decides (users/email-visibility.ts).
  const organizationEmails = !ctx.supports('email_visibility_per_user');
  return {
    applyMarkdown: p.apply_markdown ?? true,
    clientGravatar: organizationEmails ? organizationClientGravatar(ctx.store.realm, clientGravatar) : clientGravatar,
    allowEmptyTopicName: p.allow_empty_topic_name ?? false,
    emptyTopicDisplayName: ctx.server.emptyTopicDisplayName,
    editHistoryPolicy: visibilityPolicy(ctx),
    hideLinkPreviewsFlag: ctx.supports('hide_link_previews_flag'),
    organizationEmails,
  };
};

/** The most messages one POST /messages/flags/narrow changes (the real server's MAX_MESSAGES_PER_UPDATE). */
const MAX_MESSAGES_PER_UPDATE = 5000;

const ignoredChannels = (o: FlagOutcome) =>
  o.ignoredChannels ? { ignored_because_not_subscribed_channels: o.ignoredChannels } : {};

export const views: ViewTable = {
  'send-message': (ctx, p) => {
    const sent = sendMessage(ctx, ctx.actor, {
      type: p.type,
      to: p.to,
      content: p.content,
      topic: p.topic ?? p.subject,
      client: ctx.clientName,
      emptyTopicDisplayName: ctx.server.emptyTopicDisplayName,
      supports: ctx.supports,
      readBySender: p.read_by_sender,
      queueId: p.queue_id,
      localId: p.local_id,
    });
    return {
      id: sent.message.id,
      // Shaped away below 508, where the answer had only the ID.
      ...sentMessageLinks(ctx.store, ctx.actor, sent.message, ctx.server.emptyTopicDisplayName),
      ...(sent.automaticNewVisibilityPolicy !== undefined
        ? { automatic_new_visibility_policy: sent.automaticNewVisibilityPolicy }
        : {}),
    };
  },

  'get-messages': (ctx, p) => {
    // Written out, not spread from readOptions: properties added to a spread copy took a fifth
    // of the view's time (each one a slow store on the copy).
    const options = readOptions(ctx, p, p.client_gravatar);
    return fetchMessages(ctx.store, ctx.actor, {
      applyMarkdown: options.applyMarkdown,
      clientGravatar: options.clientGravatar,
      allowEmptyTopicName: options.allowEmptyTopicName,
      emptyTopicDisplayName: options.emptyTopicDisplayName,
      editHistoryPolicy: options.editHistoryPolicy,
      hideLinkPreviewsFlag: options.hideLinkPreviewsFlag,
      organizationEmails: options.organizationEmails,
      anchor: p.anchor === undefined ? undefined : String(p.anchor),
      useFirstUnreadAnchor: p.use_first_unread_anchor,
      numBefore: p.num_before,
      numAfter: p.num_after,
      includeAnchor: p.include_anchor,
      narrow: p.narrow,
      messageIds: p.message_ids,
    });
  },

  'get-message': (ctx, p) => {
    const message = accessMessage(ctx.store, ctx.actor, p.message_id);
    const dict = messageForUser(ctx.store, message, userFlags(message, ctx.actor.user_id), readOptions(ctx, p, true));
    return { message: dict, raw_content: message.content };
  },

  'get-message-history': (ctx, p) => ({
    message_history: messageHistory(ctx, ctx.actor, {
      messageId: p.message_id,
      allowEmptyTopicName: p.allow_empty_topic_name ?? false,
    }),
  }),

  'get-read-receipts': (ctx, p) => ({ user_ids: readReceipts(ctx.store, ctx.actor, p.message_id) }),

  'update-message': (ctx, p) => {
    const plan = checkUpdateMessage(ctx, ctx.actor, {
      messageId: p.message_id,
      content: p.content,
      topic: p.topic ?? p.subject,
      streamId: p.stream_id,
      propagateMode: p.propagate_mode,
      prevContentSha256: p.prev_content_sha256,
      emptyTopicDisplayName: ctx.server.emptyTopicDisplayName,
      supports: ctx.supports,
    });
    const oldHtml = plan.message.rendered_content;
    doUpdateMessage(ctx, ctx.actor, {
      plan,
      notifyOld: p.send_notification_to_old_thread ?? false,
      notifyNew: p.send_notification_to_new_thread ?? true,
      resolveUndoGraceSeconds: ctx.server.rules.resolveTopicUndoGraceSeconds,
    });
    // A new content may link other uploads: the caller's that no message links any more are detached.
    const edited = ctx.store.messages.get(p.message_id);
    return { detached_uploads: plan.content && edited ? relinkAttachments(ctx, ctx.actor, edited, oldHtml) : [] };
  },

  'delete-message': (ctx, p) => {
    deleteMessage(ctx, ctx.actor, { messageId: p.message_id });
  },

  'update-message-flags': (ctx, p) => {
    const outcome = updateMessageFlags(ctx, ctx.actor, {
      messages: p.messages,
      op: p.op,
      flag: p.flag,
      hideLinkPreviewsFlag: ctx.supports('hide_link_previews_flag'),
    });
    // The request's IDs, as the real server answers (deprecated field).
    return { messages: p.messages, ...ignoredChannels(outcome) };
  },

  'update-message-flags-for-narrow': (ctx, p) => {
    // The real server's clamp: num_before + num_after stays within MAX_MESSAGES_PER_UPDATE.
    const numBefore = Math.min(
      p.num_before,
      Math.max(MAX_MESSAGES_PER_UPDATE - p.num_after, MAX_MESSAGES_PER_UPDATE / 2),
    );
    const numAfter = Math.min(p.num_after, MAX_MESSAGES_PER_UPDATE - numBefore);
    const window = narrowWindow(ctx.store, ctx.actor, {
      anchor: p.anchor,
      narrow: p.narrow,
      numBefore,
      numAfter,
      includeAnchor: p.include_anchor,
      organizationEmails: !ctx.supports('email_visibility_per_user'),
    });
    const ids = window.messages.map((m) => m.id);
    const outcome = updateMessageFlags(ctx, ctx.actor, {
      messages: ids,
      op: p.op,
      flag: p.flag,
      hideLinkPreviewsFlag: ctx.supports('hide_link_previews_flag'),
    });
    return {
      processed_count: ids.length,
      updated_count: outcome.count,
      first_processed_id: ids[0] ?? null,
      last_processed_id: ids.at(-1) ?? null,
      found_oldest: window.foundOldest,
      found_newest: window.foundNewest,
      ...ignoredChannels(outcome),
    };
  },

  'mark-all-as-read': (ctx) => {
    markAllAsRead(ctx, ctx.actor);
    return { complete: true };
  },

  'mark-stream-as-read': (ctx, p) => {
    markChannelAsRead(ctx, ctx.actor, { streamId: p.stream_id });
  },

  'mark-topic-as-read': (ctx, p) => {
    // An empty name marks the whole channel, as on the real server; the display name of the
    // empty topic stands for it.
    const topic =
      p.topic_name === '' ? undefined : p.topic_name === ctx.server.emptyTopicDisplayName ? '' : p.topic_name;
    markChannelAsRead(ctx, ctx.actor, { streamId: p.stream_id, topic });
  },

  'render-message': (ctx, p) => ({
    rendered: renderMarkdown(ctx.store, p.content, ctx.actor, renderLevel(ctx.supports), ctx.clock.nowMs()),
  }),

  'add-reaction': (ctx, p) => {
    addReaction(ctx, ctx.actor, {
      messageId: p.message_id,
      emojiName: p.emoji_name,
      emojiCode: p.emoji_code,
      reactionType: p.reaction_type,
      emojiNames: unicodeEmojiNames(ctx.supports('emoji_smile_renamed')),
    });
  },

  'remove-reaction': (ctx, p) => {
    removeReaction(ctx, ctx.actor, {
      messageId: p.message_id,
      emojiName: p.emoji_name,
      emojiCode: p.emoji_code,
      reactionType: p.reaction_type,
      emojiNames: unicodeEmojiNames(ctx.supports('emoji_smile_renamed')),
    });
  },

  'check-messages-match-narrow': (ctx, p) => ({
    messages: messagesMatchingNarrow(
      ctx.store,
      ctx.actor,
      p.msg_ids,
      p.narrow,
      !ctx.supports('email_visibility_per_user'),
    ),
  }),

  'report-message': (ctx, p) => {
    reportMessage(ctx, ctx.actor, {
      messageId: p.message_id,
      reportType: p.report_type,
      description: p.description ?? '',
      maxTopicLength: ctx.server.limits.max_topic_length,
    });
  },
};
