// The State panel's sections for messages: by channel and topic, direct messages by
// conversation, scheduled messages and reminders with their delivery times and state.
import { h, table, longTime, relative } from './dom.js';

/** Messages shown per topic (the newest); the count says how many there are. */
const PER_TOPIC = 50;
const EMPTY_TOPIC = '(empty topic: general chat)';

function messageItem(ix, m) {
  const content = m.content.length > 300 ? `${m.content.slice(0, 300)}…` : m.content;
  return h(
    'li',
    { class: 'message' },
    h('span', { class: 'message-meta' }, `#${m.id} · ${ix.userName(m.sender_id)} · ${longTime(m.timestamp * 1000)}`),
    h('span', { class: 'message-content' }, content),
  );
}

function topicBlock(ix, topic, list) {
  const newest = list.slice(-PER_TOPIC);
  return h(
    'div',
    { class: 'topic' },
    h(
      'h5',
      {},
      topic === '' ? h('em', {}, EMPTY_TOPIC) : topic,
      h('span', { class: 'muted' }, ` · ${list.length} message${list.length === 1 ? '' : 's'}`),
    ),
    h(
      'ol',
      { class: 'messages' },
      newest.map((m) => messageItem(ix, m)),
    ),
  );
}

function groupBy(list, key) {
  const out = new Map();
  for (const item of list) {
    const k = key(item);
    if (!out.has(k)) out.set(k, []);
    out.get(k).push(item);
  }
  return out;
}

export function messagesSection(ix) {
  const messages = [...ix.state.messages].sort((a, b) => a.id - b.id);
  const byChannel = groupBy(
    messages.filter((m) => m.type === 'stream'),
    (m) => m.stream_id,
  );
  const direct = groupBy(
    messages.filter((m) => m.type !== 'stream'),
    (m) => [...new Set([m.sender_id, ...m.recipient_ids])].sort((a, b) => a - b).join(','),
  );
  const channelBlocks = [...byChannel]
    .sort(([a], [b]) => ix.streamName(a).localeCompare(ix.streamName(b)))
    .map(([sid, list]) => {
      const topics = groupBy(list, (m) => m.topic);
      return h(
        'details',
        { class: 'channel-messages', open: true },
        h(
          'summary',
          {},
          `#${ix.streamName(sid)}`,
          h(
            'span',
            { class: 'muted' },
            ` · ${list.length} message${list.length === 1 ? '' : 's'} in ${topics.size} topic${topics.size === 1 ? '' : 's'}`,
          ),
        ),
        [...topics].map(([topic, items]) => topicBlock(ix, topic, items)),
      );
    });
  const directBlocks = [...direct].map(([key, list]) =>
    h(
      'details',
      { class: 'channel-messages' },
      h(
        'summary',
        {},
        `Direct: ${key
          .split(',')
          .map((id) => ix.userName(Number(id)))
          .join(', ')}`,
        h('span', { class: 'muted' }, ` · ${list.length}`),
      ),
      h(
        'ol',
        { class: 'messages' },
        list.slice(-PER_TOPIC).map((m) => messageItem(ix, m)),
      ),
    ),
  );
  if (!channelBlocks.length && !directBlocks.length) return h('p', { class: 'muted' }, 'No messages.');
  return h('div', {}, channelBlocks, directBlocks);
}

function deliveryCell(ts, nowMs) {
  return h('span', {}, longTime(ts * 1000), h('br'), h('span', { class: 'muted' }, relative(ts * 1000, nowMs)));
}

function stateTag(row) {
  if (row.delivered_message_id !== null)
    return h('span', { class: 'tag tag-delivered' }, `delivered: message #${row.delivered_message_id}`);
  if (row.failed) return h('span', { class: 'tag tag-failed' }, 'failed');
  return h('span', { class: 'tag tag-pending' }, 'pending');
}

export function scheduledSection(ix, nowMs) {
  const rows = [...ix.state.scheduled_messages]
    .sort((a, b) => a.scheduled_delivery_timestamp - b.scheduled_delivery_timestamp)
    .map((s) => [
      `#${s.scheduled_message_id}`,
      ix.userName(s.sender_id),
      s.type === 'stream'
        ? `#${ix.streamName(s.to)} > ${s.topic || EMPTY_TOPIC}`
        : `Direct: ${[].concat(s.to).map(ix.userName).join(', ')}`,
      s.content.length > 120 ? `${s.content.slice(0, 120)}…` : s.content,
      deliveryCell(s.scheduled_delivery_timestamp, nowMs),
      stateTag(s),
    ]);
  if (!rows.length) return h('p', { class: 'muted' }, 'No scheduled messages.');
  return table('Scheduled messages', ['ID', 'Sender', 'To', 'Content', 'Delivery', 'State'], rows, {
    class: 'scheduled-table',
  });
}

export function remindersSection(ix, nowMs) {
  const rows = [...ix.state.reminders]
    .sort((a, b) => a.scheduled_delivery_timestamp - b.scheduled_delivery_timestamp)
    .map((r) => [
      `#${r.reminder_id}`,
      ix.userName(r.user_id),
      `message #${r.message_id}`,
      r.note || '—',
      deliveryCell(r.scheduled_delivery_timestamp, nowMs),
      stateTag({ ...r, failed: false }),
    ]);
  if (!rows.length) return h('p', { class: 'muted' }, 'No reminders.');
  return table('Reminders', ['ID', 'User', 'About', 'Note', 'Delivery', 'State'], rows, { class: 'reminders-table' });
}
