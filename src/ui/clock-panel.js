// The Clock panel (and the clock in the header): the mock's current time, ticking between
// readings unless frozen; advance it, jump to the next scheduled delivery, freeze it, set it.
import { h, fill, longTime, relative, duration, toast } from './dom.js';
import { control } from './api.js';

const $ = (id) => document.getElementById(id);
const MINUTE = 60_000;

let reading = null;
let readAt = 0;
const listeners = [];

/** Called after the page moved the clock (due messages may have been delivered). */
export const onClockChange = (fn) => listeners.push(fn);

/** The mock's time now, from the last reading. */
function mockNow() {
  if (!reading) return Date.now();
  return reading.frozen ? reading.now_ms : reading.now_ms + (performance.now() - readAt);
}

function tick() {
  if (!reading) return;
  const now = mockNow();
  $('header-clock').textContent = `${longTime(now)}${reading.frozen ? ' (frozen)' : ''}`;
  $('clock-now').textContent = longTime(now);
  $('clock-now').setAttribute('datetime', new Date(now).toISOString());
  $('clock-iso').textContent = new Date(now).toISOString();
  if (reading.next_delivery !== null)
    $('clock-next-relative').textContent = relative(reading.next_delivery * 1000, now);
}

function render() {
  const r = reading;
  const freeze = $('clock-freeze');
  freeze.textContent = r.frozen ? 'Unfreeze' : 'Freeze';
  freeze.setAttribute('aria-pressed', String(r.frozen));
  $('clock-state').textContent = r.frozen ? 'Frozen: time stands still until you move it.' : 'Running.';
  $('clock-state').dataset.frozen = String(r.frozen);
  $('clock-offset').textContent = r.offset_ms === 0 ? 'Same as real time.' : `${duration(r.offset_ms)} from real time.`;
  $('clock-to-next').disabled = r.next_delivery === null;
  fill(
    $('clock-next'),
    r.next_delivery === null
      ? 'Nothing scheduled.'
      : [
          h('time', { datetime: new Date(r.next_delivery * 1000).toISOString() }, longTime(r.next_delivery * 1000)),
          ' (',
          h('span', { id: 'clock-next-relative' }),
          ')',
        ],
  );
  tick();
}

export async function refreshClock() {
  try {
    reading = await control('GET', '/clock');
    readAt = performance.now();
    render();
  } catch (err) {
    $('header-clock').textContent = 'clock unavailable';
    toast(`Clock: ${err.message}`, 'error');
  }
}

async function move(body, what) {
  try {
    reading = await control('POST', '/clock', { body });
    readAt = performance.now();
    render();
    toast(`Clock: ${what}. Now ${longTime(reading.now_ms)}.`);
    for (const fn of listeners) fn(reading);
  } catch (err) {
    toast(`Clock: ${err.message}`, 'error');
  }
}

export function initClock() {
  const actions = {
    'clock-minute': [{ advance_ms: MINUTE }, 'advanced a minute'],
    'clock-hour': [{ advance_ms: 60 * MINUTE }, 'advanced an hour'],
    'clock-day': [{ advance_ms: 24 * 60 * MINUTE }, 'advanced a day'],
    'clock-to-next': [{ to_next_delivery: true }, 'moved to the next scheduled delivery'],
    'clock-real': [{ real: true }, 'back to real time'],
  };
  for (const [id, [body, what]] of Object.entries(actions)) $(id).addEventListener('click', () => move(body, what));
  $('clock-freeze').addEventListener('click', () =>
    move({ freeze: !reading?.frozen }, reading?.frozen ? 'unfrozen' : 'frozen'),
  );
  $('clock-set-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const value = $('clock-set-input').value;
    if (!value) return;
    // datetime-local has no zone: the browser's local time, as the panel shows it.
    move({ set_ms: new Date(value).getTime() }, 'set');
  });
  setInterval(tick, 1000);
  // Other clients (tests, scripts) move the clock too: read it again now and then.
  setInterval(refreshClock, 15_000);
}
