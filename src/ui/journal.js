// The journal panel: requests newest first (live), filters by operation, user and status, and
// the selected request's detail.
import { h, fill, clockTime, toast } from './dom.js';
import { control, currentSandbox } from './api.js';
import { startLiveFeed } from './live-feed.js';
import { renderDetail } from './journal-detail.js';

/** Entries the page keeps; older ones drop off the bottom. */
const KEEP = 1000;

const $ = (id) => document.getElementById(id);
let entries = [];
let selectedId = null;
let stopFeed = null;
const listeners = [];

/** Called with each batch of new entries (other panels refresh on activity). */
export const onJournalActivity = (fn) => listeners.push(fn);

const statusClass = (s) => (s === 0 ? 's-dropped' : s < 300 ? 's-ok' : s < 500 ? 's-client' : 's-server');

function filters() {
  return {
    operation: $('filter-operation').value.trim(),
    user: $('filter-user').value,
    status: $('filter-status').value,
  };
}

function matches(e, f) {
  if (f.operation && !(e.operation ?? '').includes(f.operation) && !e.path.includes(f.operation)) return false;
  if (f.user === '(anonymous)' ? e.user !== null : f.user && e.user !== f.user) return false;
  if (!f.status) return true;
  if (f.status === 'problems') return e.problems.length > 0;
  if (/^\dxx$/.test(f.status)) return Math.floor(e.status / 100) === Number(f.status[0]);
  return e.status === Number(f.status);
}

function entryItem(e) {
  const problems = e.problems.length;
  const label = `${e.method} ${e.path}, status ${e.status || 'dropped'}${e.code ? ` ${e.code}` : ''}${e.user ? `, ${e.user}` : ''}${problems ? `, ${problems} validation problem${problems > 1 ? 's' : ''}` : ''}`;
  return h(
    'li',
    { class: `entry ${statusClass(e.status)}${problems ? ' has-problems' : ''}`, 'data-id': e.id },
    h(
      'button',
      {
        type: 'button',
        class: 'entry-button',
        'aria-label': label,
        'aria-current': e.id === selectedId ? 'true' : null,
        onclick: () => select(e.id),
      },
      h(
        'span',
        { class: 'entry-line' },
        h('span', { class: 'status-badge' }, e.status || 'drop'),
        h('span', { class: 'method' }, e.method),
        h('span', { class: 'path' }, e.path),
        h('time', { class: 'entry-time', datetime: new Date(e.time).toISOString() }, clockTime(e.time)),
      ),
      h(
        'span',
        { class: 'entry-line entry-meta' },
        h('span', { class: 'operation' }, e.operation ?? 'no operation'),
        h('span', { class: 'user' }, e.user ?? 'anonymous'),
        e.code ? h('span', { class: 'code' }, e.code) : null,
        problems ? h('span', { class: 'problem-badge' }, `⚠ ${problems} problem${problems > 1 ? 's' : ''}`) : null,
        e.scenario ? h('span', { class: 'scenario-badge' }, `scenario ${e.scenario}`) : null,
      ),
    ),
  );
}

function renderList() {
  const f = filters();
  const shown = entries.filter((e) => matches(e, f));
  // Rebuilding the list must not take the keyboard focus away from the entry it was on.
  const focused = document.activeElement?.closest?.('#journal-list li')?.dataset.id;
  fill($('journal-list'), shown.map(entryItem));
  if (focused) $('journal-list').querySelector(`[data-id="${focused}"] button`)?.focus();
  const filtered = shown.length !== entries.length;
  $('journal-summary').textContent =
    entries.length === 0
      ? 'No requests yet: call the API and they appear here.'
      : `${shown.length} request${shown.length === 1 ? '' : 's'}${filtered ? ` of ${entries.length} (filtered)` : ''}, newest first`;
  $('journal-count').textContent = String(entries.length);
}

/** Keeps the filter choices in step with what the journal holds. */
function refreshChoices() {
  const ops = [...new Set(entries.map((e) => e.operation).filter(Boolean))].sort();
  fill(
    $('operation-options'),
    ops.map((op) => h('option', { value: op })),
  );
  syncSelect($('filter-user'), [...new Set(entries.map((e) => e.user ?? '(anonymous)'))].sort());
  syncSelect($('filter-status'), [...new Set(entries.map((e) => String(e.status)))].sort(), 'exact');
}

function syncSelect(select, values, group) {
  const holder = group
    ? (select.querySelector(`optgroup[data-group="${group}"]`) ??
      select.appendChild(h('optgroup', { label: 'Exact status', 'data-group': group })))
    : select;
  const have = new Set([...holder.querySelectorAll('option')].map((o) => o.value));
  for (const v of values) if (!have.has(v)) holder.append(h('option', { value: v }, v));
}

function select(id) {
  selectedId = id;
  for (const li of $('journal-list').children) {
    li.firstChild.setAttribute('aria-current', String(Number(li.dataset.id) === id));
  }
  const entry = entries.find((e) => e.id === id) ?? null;
  renderDetail($('journal-detail'), entry, () => {
    const back = $('journal-list').querySelector(`[data-id="${id}"] button`);
    selectedId = null;
    renderDetail($('journal-detail'), null);
    back?.setAttribute('aria-current', 'false');
    back?.focus();
  });
}

function addEntries(batch) {
  entries = [...batch.reverse(), ...entries].slice(0, KEEP);
  refreshChoices();
  renderList();
  for (const fn of listeners) fn(batch);
}

function setLive(state) {
  const text = {
    live: 'Live',
    polling: 'Live (polling)',
    reconnecting: 'Reconnecting…',
    offline: 'Mock not answering',
    refused: 'Control token needed',
  }[state];
  const el = $('live-status');
  el.textContent = text;
  el.dataset.state = state;
}

/** (Re)loads the journal of the current sandbox and follows it live. */
export async function loadJournal() {
  stopFeed?.();
  entries = [];
  selectedId = null;
  renderDetail($('journal-detail'), null);
  let lastId = 0;
  try {
    const page = await control('GET', '/journal', { query: { sandbox: currentSandbox(), limit: 500 } });
    entries = page.entries;
    lastId = entries[0]?.id ?? 0;
  } catch (err) {
    toast(`Journal: ${err.message}`, 'error');
  }
  refreshChoices();
  renderList();
  stopFeed = startLiveFeed({ sinceId: lastId, onEntries: addEntries, onStatus: setLive });
}

export function initJournal() {
  $('journal-filters').addEventListener('input', renderList);
  $('journal-filters').addEventListener('submit', (e) => e.preventDefault());
  $('journal-clear').addEventListener('click', async () => {
    try {
      await control('DELETE', '/journal');
      entries = [];
      renderList();
      renderDetail($('journal-detail'), null);
      toast('Journal cleared');
    } catch (err) {
      toast(`Clear journal: ${err.message}`, 'error');
    }
  });
}
