// One journal entry in full: what was asked (decoded parameters), what was answered (the body)
// and the problems the response has against the description, with their JSON paths.
import { h, fill, json, longTime } from './dom.js';

function facts(e) {
  const rows = [
    ['Operation', e.operation ?? '—'],
    ['User', e.user ?? 'anonymous'],
    ['Status', `${e.status || 'connection dropped'}${e.code ? ` · ${e.code}` : ''}`],
    ['Scenario', e.scenario ?? '—'],
    ['Sandbox', e.sandbox || '—'],
    ['Mock time', longTime(e.time)],
    ['Duration', `${e.duration_ms} ms`],
    ['Journal id', String(e.id)],
  ];
  return h(
    'dl',
    { class: 'facts' },
    rows.map(([k, v]) => h('div', {}, h('dt', {}, k), h('dd', {}, v))),
  );
}

function problems(e) {
  if (!e.problems.length) return null;
  return h(
    'section',
    { class: 'problems', 'aria-labelledby': 'detail-problems' },
    h('h3', { id: 'detail-problems' }, `⚠ Validation problems (${e.problems.length})`),
    h('p', { class: 'muted' }, 'The response breaks the OpenAPI description here:'),
    h(
      'ul',
      {},
      e.problems.map((p) => h('li', {}, h('code', { class: 'json-path' }, p.path || '/'), ' ', p.message)),
    ),
  );
}

function parameters(e) {
  const names = Object.keys(e.params ?? {});
  return h(
    'section',
    { 'aria-labelledby': 'detail-params' },
    h('h3', { id: 'detail-params' }, 'Parameters'),
    names.length === 0
      ? h('p', { class: 'muted' }, 'None.')
      : h(
          'table',
          { class: 'params-table' },
          h('caption', { class: 'visually-hidden' }, 'Decoded parameters'),
          h(
            'tbody',
            {},
            names.map((name) =>
              h(
                'tr',
                {},
                h('th', { scope: 'row' }, h('code', {}, name)),
                h('td', {}, h('pre', { class: 'value' }, json(e.params[name]))),
              ),
            ),
          ),
        ),
  );
}

function response(e) {
  return h(
    'section',
    { 'aria-labelledby': 'detail-response' },
    h('h3', { id: 'detail-response' }, 'Response body'),
    e.response === undefined
      ? h('p', { class: 'muted' }, 'No body (the connection was dropped).')
      : h('pre', { class: 'json', tabindex: '0', 'aria-label': 'Response body JSON' }, json(e.response)),
  );
}

/** Shows `entry` in `panel` (or the placeholder when null); `close` returns to the list. */
export function renderDetail(panel, entry, close) {
  if (!entry) {
    panel.classList.remove('open');
    fill(
      panel,
      h(
        'p',
        { class: 'muted placeholder' },
        'Select a request to see its parameters, its response and any validation problems.',
      ),
    );
    return;
  }
  panel.classList.add('open');
  fill(
    panel,
    h(
      'div',
      { class: 'detail-head' },
      h(
        'h2',
        { id: 'detail-title', tabindex: '-1' },
        h('span', { class: 'method' }, entry.method),
        ' ',
        h('span', { class: 'path' }, entry.path),
      ),
      h('button', { type: 'button', class: 'close-detail', onclick: close }, 'Close'),
    ),
    facts(entry),
    problems(entry),
    parameters(entry),
    response(entry),
  );
  const title = panel.querySelector('#detail-title');
  title.focus({ preventScroll: true });
  if (window.matchMedia('(max-width: 899px)').matches) panel.scrollIntoView({ block: 'start' });
}
