// The client's own things in the registration state: settings, topic policies, scheduled messages,
// reminders, saved snippets, drafts and the users' statuses. Topics are shown as the client's
// capabilities ask (the empty topic by its display name for clients without empty_topic_name).
import type { Store } from '../../store/store.js';
import type { User } from '../../store/state.js';
import { maxVisibleMessageId } from '../messages/max-visible.js';
import { reminderDict } from '../reminders/create.js';
import { scheduledMessageDict } from '../scheduled-messages/schedule.js';

/** How the client writes the empty topic: "" or the organization's display name for it. */
export type TopicShown = (topic: string) => string;

export function userSettingsState(actor: User): Record<string, unknown> {
  return { user_settings: structuredClone(actor.settings) };
}

export function userTopicState(store: Store, actor: User, shown: TopicShown): Record<string, unknown> {
  const mine = store.userTopics.filter((t) => t.user_id === actor.user_id && t.visibility_policy !== 0);
  return {
    user_topics: mine.map((t) => ({
      stream_id: t.stream_id,
      topic_name: shown(t.topic),
      last_updated: t.last_updated,
      visibility_policy: t.visibility_policy,
    })),
  };
}

export function scheduledMessageState(store: Store, actor: User, shown: TopicShown): Record<string, unknown> {
  const pending = store.scheduledMessages.filter((m) => m.sender_id === actor.user_id && m.delivered_message_id === null);
  return {
    scheduled_messages: pending
      .sort((a, b) => a.scheduled_delivery_timestamp - b.scheduled_delivery_timestamp)
      .map((m) => {
        const dict = scheduledMessageDict(m);
        if (m.type === 'stream') dict.topic = shown(m.topic);
        return dict;
      }),
  };
}

export function reminderState(store: Store, actor: User): Record<string, unknown> {
  const pending = store.reminders.filter((r) => r.user_id === actor.user_id && r.delivered_message_id === null);
  return {
    reminders: pending
      .sort((a, b) => a.scheduled_delivery_timestamp - b.scheduled_delivery_timestamp)
      .map((r) => reminderDict(store, r)),
  };
}

export function savedSnippetState(store: Store, actor: User): Record<string, unknown> {
  return {
    saved_snippets: store.savedSnippets
      .filter((s) => s.user_id === actor.user_id)
      .map((s) => ({ id: s.id, title: s.title, content: s.content, date_created: s.date_created })),
  };
}

export function draftState(store: Store, actor: User, shown: TopicShown): Record<string, unknown> {
  return {
    drafts: store.drafts
      .filter((d) => d.user_id === actor.user_id)
      .map((d) => ({ id: d.id, type: d.type, to: [...d.to], topic: d.type === 'stream' ? shown(d.topic) : d.topic, content: d.content, timestamp: d.timestamp })),
  };
}

/** Statuses of the users who have one, keyed by user ID; `away` mirrors presence_enabled. */
export function userStatusState(store: Store): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const u of store.users.all()) {
    if (!u.is_active) continue;
    const s = u.status;
    const entry: Record<string, unknown> = {};
    if (s.status_text) entry.status_text = s.status_text;
    if (s.emoji_name) Object.assign(entry, { emoji_name: s.emoji_name, emoji_code: s.emoji_code, reaction_type: s.reaction_type });
    if (u.settings.presence_enabled === false) entry.away = true;
    if (Object.keys(entry).length) out[String(u.user_id)] = entry;
  }
  return { user_status: out };
}

/** The newest message the client's user can see; -1 when none. */
export function maxMessageIdState(store: Store, actor: User): Record<string, unknown> {
  return { max_message_id: maxVisibleMessageId(store, actor) };
}
