// Views of the messaging operations, by operationId: parameters in, actions called, the
// operation's own response fields out.
import { badRequest } from '../../errors.js';
import type { Ctx, ViewTable } from '../context.js';
import { createReminder } from './reminders.js';
import { createScheduledMessage } from './scheduled.js';
import { replaceScheduledMessage } from './scheduled-legacy.js';
import { createSavedSnippet } from './snippets.js';
import { messagesMatchingNarrow } from './matches-narrow.js';
import { reportMessage } from './report.js';
import { sendMessage } from './send.js';
import { sendEditTyping } from './edit-typing.js';
import { clientViews } from './client-views.js';
import { manageViews } from './manage-views.js';

const displayName = (ctx: Ctx) => ctx.server.emptyTopicDisplayName;

export const views: ViewTable = {
  // GET / PATCH / DELETE of scheduled messages, reminders and saved snippets.
  ...manageViews,
  // Reading, editing, deleting, flags, rendering, reactions and typing (client-views.ts).
  ...clientViews,
  'send-message': (ctx, p) => {
    // Local echo needs both halves.
    const sent = sendMessage(ctx.store, ctx.events, ctx.actor, {
      type: p.type,
      to: p.to,
      content: p.content,
      topic: p.topic ?? p.subject,
      client: ctx.clientName,
      emptyTopicDisplayName: displayName(ctx),
      supports: ctx.supports,
      readBySender: p.read_by_sender,
      queueId: p.queue_id,
      localId: p.local_id,
    }, ctx.clock.now());
    return {
      id: sent.message.id,
      ...(sent.automaticNewVisibilityPolicy !== undefined ? { automatic_new_visibility_policy: sent.automaticNewVisibilityPolicy } : {}),
    };
  },

  'create-scheduled-message': (ctx, p) => {
    const to = (p.type === 'direct' || p.type === 'private') && typeof p.to === 'number' ? [p.to] : p.to;
    // Only servers at FL 179-183 take scheduled_message_id (the description says so): an edit.
    const replaced = p.scheduled_message_id;
    const act = replaced !== undefined
      ? (...args: Parameters<typeof createScheduledMessage>) => replaceScheduledMessage(args[0], args[1], args[2], replaced, args[3], args[4])
      : createScheduledMessage;
    const row = act(ctx.store, ctx.events, ctx.actor, {
      type: p.type,
      to,
      content: p.content,
      topic: p.topic,
      client: ctx.clientName,
      emptyTopicDisplayName: displayName(ctx),
      supports: ctx.supports,
      scheduledDeliveryTimestamp: p.scheduled_delivery_timestamp,
      readBySender: p.read_by_sender,
    }, ctx.clock.now());
    return { scheduled_message_id: row.scheduled_message_id };
  },

  'create-message-reminder': (ctx, p) => {
    const reminder = createReminder(ctx.store, ctx.events, ctx.actor, {
      messageId: p.message_id,
      scheduledDeliveryTimestamp: p.scheduled_delivery_timestamp,
      note: p.note ?? '',
    }, ctx.clock.now());
    return { reminder_id: reminder.reminder_id };
  },

  'create-saved-snippet': (ctx, p) => {
    const snippet = createSavedSnippet(ctx.store, ctx.events, ctx.actor, p.title, p.content, ctx.clock.now());
    return { saved_snippet_id: snippet.id };
  },

  'check-messages-match-narrow': (ctx, p) => ({
    messages: messagesMatchingNarrow(ctx.store, ctx.actor, p.msg_ids, p.narrow),
  }),

  'report-message': (ctx, p) => {
    reportMessage(ctx.store, ctx.events, ctx.actor, p.message_id, p.report_type, p.description ?? '', ctx.server.limits.max_topic_length, ctx.clock.now());
  },

  'set-typing-status-for-message-edit': (ctx, p) => {
    sendEditTyping(ctx.store, ctx.events, ctx.actor, p.message_id, p.op, ctx.clock.now());
  },
  // FL 351-360: the same notification, with message_id in the body.
  'set-typing-status-for-message-edit-legacy': (ctx, p) => {
    sendEditTyping(ctx.store, ctx.events, ctx.actor, p.message_id, p.op, ctx.clock.now());
  },
};
