// The State panel: the world's state as GET /__mock/state exports it, readable. It refreshes
// when shown, after requests that may have changed it, and on demand.
import { h, fill, clockTime, toast } from './dom.js';
import { control } from './api.js';
import { indexState, usersSection, channelsSection, groupsSection, devicesSection } from './state-sections.js';
import { messagesSection, scheduledSection, remindersSection } from './state-messages.js';

const $ = (id) => document.getElementById(id);

const SECTIONS = [
  ['users', 'Users', (ix) => usersSection(ix)],
  ['channels', 'Channels', (ix) => channelsSection(ix)],
  ['groups', 'User groups', (ix) => groupsSection(ix)],
  ['messages', 'Messages by channel and topic', (ix) => messagesSection(ix)],
  ['scheduled', 'Scheduled messages', (ix, now) => scheduledSection(ix, now)],
  ['reminders', 'Reminders', (ix, now) => remindersSection(ix, now)],
  ['devices', 'Push devices', (ix) => devicesSection(ix)],
];

let loading = null;

function applyFilter() {
  const text = $('state-filter').value.trim().toLowerCase();
  for (const el of $('state-body').querySelectorAll('tbody tr, .card, li.message')) {
    el.hidden = text !== '' && !el.textContent.toLowerCase().includes(text);
  }
}

async function load() {
  const status = $('state-updated');
  status.textContent = 'Loading…';
  try {
    const [{ state }, clock] = await Promise.all([control('GET', '/state'), control('GET', '/clock')]);
    const ix = indexState(state);
    // Keep the reader's place: which sections are open, where the page is scrolled.
    const closed = new Set(
      [...$('state-body').querySelectorAll('details.channel-messages:not([open]) > summary')].map((s) => s.textContent),
    );
    fill(
      $('state-body'),
      SECTIONS.map(([id, title, render]) =>
        h(
          'section',
          { class: 'state-section', id: `state-${id}`, 'aria-labelledby': `state-${id}-title` },
          h(
            'h3',
            { id: `state-${id}-title` },
            title,
            h('span', { class: 'muted count-note' }, ` (${countOf(state, id)})`),
          ),
          render(ix, clock.now_ms),
        ),
      ),
    );
    for (const s of $('state-body').querySelectorAll('details.channel-messages > summary')) {
      if (closed.has(s.textContent)) s.parentElement.open = false;
    }
    applyFilter();
    status.textContent = `Updated at ${clockTime(Date.now())} (real time)`;
  } catch (err) {
    status.textContent = 'Could not load the state.';
    toast(`State: ${err.message}`, 'error');
  }
}

function countOf(state, id) {
  const key = {
    users: 'users',
    channels: 'streams',
    groups: 'user_groups',
    messages: 'messages',
    scheduled: 'scheduled_messages',
    reminders: 'reminders',
    devices: 'push_devices',
  }[id];
  return state[key].length;
}

/** Loads the state now (one load at a time; a request made meanwhile runs once afterwards). */
export function refreshState() {
  if (loading) {
    loading.again = true;
    return loading.promise;
  }
  const run = { again: false, promise: null };
  run.promise = load().finally(() => {
    loading = null;
    if (run.again) refreshState();
  });
  loading = run;
  return run.promise;
}

export function initState() {
  fill(
    $('state-nav'),
    SECTIONS.map(([id, title]) =>
      h(
        'li',
        {},
        h(
          'a',
          {
            href: `#state-${id}`,
            onclick: (e) => {
              e.preventDefault();
              const target = $(`state-${id}`);
              target?.scrollIntoView({ block: 'start' });
              target?.querySelector('h3')?.setAttribute('tabindex', '-1');
              target?.querySelector('h3')?.focus({ preventScroll: true });
            },
          },
          title,
        ),
      ),
    ),
  );
  $('state-filter').addEventListener('input', applyFilter);
  $('state-refresh').addEventListener('click', () => refreshState());
}
