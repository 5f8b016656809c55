// The Outbox panel: what the mock "sent" elsewhere, newest first: emails (invitations and their
// reminders, email-change confirmations, missed-message emails) with their links, and push
// notifications per device with the payload the push bouncer would get. Live through
// /__mock/outbox/stream while the page can use it; read again when shown or when the sandbox,
// the filter or the clock change.
import { h, fill, toast, clockTime } from './dom.js';
import { control, hasToken, outboxStreamUrl } from './api.js';

const $ = (id) => document.getElementById(id);
const MAX_SHOWN = 200;
let source = null;
let lastId = 0;

function emailItem(item) {
  return h(
    'li',
    { class: 'outbox-item', 'data-kind': 'email', 'data-id': String(item.id) },
    h(
      'p',
      { class: 'outbox-head' },
      h('span', { class: 'outbox-badge mono' }, item.template),
      ' ',
      h('strong', {}, item.subject),
      h('span', { class: 'muted' }, ` · to ${item.to} · ${clockTime(item.time)}`),
    ),
    h(
      'details',
      {},
      h('summary', {}, 'Text and links'),
      h('pre', { class: 'mono outbox-text' }, item.text),
      h(
        'ul',
        { class: 'outbox-links' },
        Object.entries(item.links ?? {}).map(([name, url]) =>
          h('li', {}, h('span', { class: 'muted' }, `${name}: `), h('code', { class: 'mono' }, url)),
        ),
      ),
    ),
  );
}

function pushItem(item) {
  return h(
    'li',
    { class: 'outbox-item', 'data-kind': 'push', 'data-id': String(item.id) },
    h(
      'p',
      { class: 'outbox-head' },
      h('span', { class: 'outbox-badge mono' }, `${item.form} ${item.event}`),
      ' ',
      h('strong', {}, `user ${item.user_id} · device ${item.device_id}`),
      h('span', { class: 'muted' }, ` · ${messagesOf(item)}${clockTime(item.time)}`),
    ),
    h(
      'details',
      {},
      h('summary', {}, 'Payload'),
      h('pre', { class: 'mono outbox-text' }, JSON.stringify(item.payload, null, 2)),
    ),
    // E2EE: what encrypted_data decrypts to (the mock's own addition, never sent).
    item.plaintext
      ? h(
          'details',
          {},
          h('summary', {}, 'Decrypted (the mock’s addition)'),
          h('pre', { class: 'mono outbox-text' }, JSON.stringify(item.plaintext, null, 2)),
        )
      : null,
  );
}

/** "message 12 · ", "messages 12, 13 · ", or nothing (a test notification). */
function messagesOf(item) {
  const ids = item.message_ids;
  if (!ids.length) return '';
  return `message${ids.length > 1 ? 's' : ''} ${ids.join(', ')} · `;
}

const render = (item) => (item.kind === 'email' ? emailItem(item) : pushItem(item));
const wanted = (item) => !$('outbox-kind').value || item.kind === $('outbox-kind').value;

function prepend(items) {
  const list = $('outbox-list');
  for (const item of items) {
    lastId = Math.max(lastId, item.id);
    if (!wanted(item)) continue;
    list.prepend(render(item));
  }
  while (list.children.length > MAX_SHOWN) list.lastElementChild.remove();
  $('outbox-summary').textContent = `${list.children.length} shown`;
}

function listen() {
  source?.close();
  source = null;
  // EventSource cannot send the control token: with one, the panel is read again on activity instead.
  if (hasToken() || typeof EventSource === 'undefined') return;
  source = new EventSource(outboxStreamUrl(lastId));
  source.addEventListener('item', (event) => prepend([JSON.parse(event.data)]));
  source.addEventListener('error', () => {
    if (source?.readyState === EventSource.CLOSED) source = null;
  });
}

export async function refreshOutbox() {
  try {
    const page = await control('GET', '/outbox', {
      query: { kind: $('outbox-kind').value || undefined, limit: MAX_SHOWN },
    });
    fill($('outbox-list'), page.items.map(render));
    lastId = Math.max(0, ...page.items.map((i) => i.id));
    $('outbox-summary').textContent = `${page.items.length} shown of ${page.count}`;
    $('outbox-empty').hidden = page.items.length > 0;
    listen();
  } catch (err) {
    toast(`Outbox: ${err.message}`, 'error');
  }
}

export function initOutbox() {
  $('outbox-kind').addEventListener('change', refreshOutbox);
  $('outbox-refresh').addEventListener('click', refreshOutbox);
  $('outbox-clear').addEventListener('click', async () => {
    try {
      await control('DELETE', '/outbox');
    } catch (err) {
      toast(`Outbox: ${err.message}`, 'error');
    }
    await refreshOutbox();
  });
}
