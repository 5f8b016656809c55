// GET /messages/{message_id}/history: the versions of a message, built from the edit_history
// rows every edit and move records (edit-apply.ts), most recent first there and oldest first in
// the answer. Each stored row says what a change replaced; walking from the current message back
// through them gives the values after each change, and the original at the end.
import { badRequest } from '../../errors.js';
import type { Message, User } from '../../store/state.js';
import type { Ctx } from '../context.js';
import { accessMessage } from './access.js';
import { htmlDiff, newDiffBudget } from './html-diff.js';

export type EditHistoryPolicy = 'all' | 'moves' | 'none';
type Policy = EditHistoryPolicy;

/** The organization's policy as the request's level knows it: below FL 358, all or nothing. */
export function visibilityPolicy(ctx: Ctx): Policy {
  const policy = (ctx.store.realm.shown_settings?.message_edit_history_visibility_policy ?? 'all') as Policy;
  if (!ctx.supports('edit_history_visibility_policy') && policy === 'moves') return 'all';
  return policy;
}

/** Every version, newest first, each with the values after it and what it changed. */
function versions(message: Message, showTopic: (t: string) => string): Record<string, unknown>[] {
  let content = message.content;
  let rendered = message.rendered_content;
  let topic = message.type === 'stream' ? showTopic(message.topic) : '';
  const out: Record<string, unknown>[] = [];
  const budget = newDiffBudget();
  for (const row of message.edit_history ?? []) {
    const version: Record<string, unknown> = {
      content,
      rendered_content: rendered,
      timestamp: row.timestamp,
      topic,
      user_id: row.user_id,
    };
    if (row.prev_topic !== undefined) {
      topic = showTopic(row.prev_topic);
      version.prev_topic = topic;
    }
    if (row.prev_content !== undefined) {
      const prevRendered = row.prev_rendered_content ?? '';
      Object.assign(version, {
        prev_content: row.prev_content,
        prev_rendered_content: prevRendered,
        content_html_diff: htmlDiff(prevRendered, rendered, budget),
      });
      content = row.prev_content;
      rendered = prevRendered;
    }
    if (row.prev_stream !== undefined) Object.assign(version, { prev_stream: row.prev_stream, stream: row.stream });
    out.push(version);
  }
  out.push({ content, rendered_content: rendered, timestamp: message.timestamp, topic, user_id: message.sender_id });
  return out;
}

/** Under `moves`, content edits are left out; an edit that also moved keeps only its move. */
function onlyMoves(list: Record<string, unknown>[]): Record<string, unknown>[] {
  return list.flatMap((v) => {
    if (!('prev_content' in v)) return [v];
    if (!('prev_topic' in v)) return [];
    const { prev_content: _c, prev_rendered_content: _r, content_html_diff: _d, ...move } = v;
    return [move];
  });
}

export function messageHistory(
  ctx: Ctx,
  user: User,
  { messageId, allowEmptyTopicName }: { messageId: number; allowEmptyTopicName: boolean },
) {
  const policy = visibilityPolicy(ctx);
  if (policy === 'none') throw badRequest('Message edit history is disabled in this organization');
  const message = accessMessage(ctx.store, user, messageId);
  const display = ctx.server.emptyTopicDisplayName;
  const showTopic = (t: string) => (t === '' && !allowEmptyTopicName ? display : t);
  const all = versions(message, showTopic);
  return (policy === 'moves' ? onlyMoves(all) : all).reverse();
}
