// The inspector's entry: header (what the mock pretends to be, its clock, the sandbox, reset),
// the panel tabs, and the wiring that keeps panels fresh while requests come in.
import { h, fill, debounce, toast } from './dom.js';
import { control, currentSandbox, hasToken, setSandbox, setToken, onUnauthorized } from './api.js';
import { initJournal, loadJournal, onJournalActivity } from './journal.js';
import { initState, refreshState } from './state-panel.js';
import { initScenarios, refreshScenarios } from './scenarios-panel.js';
import { initClock, refreshClock, onClockChange } from './clock-panel.js';
import { initCoverage, refreshCoverage } from './coverage-panel.js';
import { initOutbox, refreshOutbox } from './outbox-panel.js';

const $ = (id) => document.getElementById(id);
const PANELS = ['journal', 'state', 'scenarios', 'clock', 'coverage', 'outbox'];

const currentPanel = () => PANELS.find((p) => $(`tab-${p}`).getAttribute('aria-selected') === 'true');

function showPanel(name, { focus = false } = {}) {
  for (const p of PANELS) {
    const on = p === name;
    $(`tab-${p}`).setAttribute('aria-selected', String(on));
    $(`tab-${p}`).tabIndex = on ? 0 : -1;
    $(`panel-${p}`).hidden = !on;
  }
  if (focus) $(`tab-${name}`).focus();
  if (location.hash !== `#${name}`) history.replaceState(null, '', `${location.pathname}${location.search}#${name}`);
  // The state is read whenever it is shown (and while shown, after each change).
  if (name === 'state') refreshState();
  if (name === 'coverage') refreshCoverage();
  if (name === 'outbox') refreshOutbox();
}

function initTabs() {
  for (const p of PANELS) $(`tab-${p}`).addEventListener('click', () => showPanel(p));
  // Arrow keys, Home and End move between tabs (the usual tablist keyboard pattern).
  $('tabs').addEventListener('keydown', (e) => {
    const i = PANELS.indexOf(currentPanel());
    const next = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: PANELS.length - 1 }[e.key];
    if (next === undefined) return;
    e.preventDefault();
    showPanel(PANELS[(next + PANELS.length) % PANELS.length], { focus: true });
  });
  window.addEventListener('hashchange', () => {
    const name = location.hash.slice(1);
    if (PANELS.includes(name)) showPanel(name);
  });
}

/** After requests: the clock (next delivery) and scenario hits are cheap to read again; the
 * state only while it is on screen. */
function refreshAfterChange() {
  refreshClock();
  refreshScenarios();
  if (currentPanel() === 'state') refreshState();
  if (currentPanel() === 'coverage') refreshCoverage();
  // Without the live stream (a control token), what the requests sent shows on the next read.
  if (currentPanel() === 'outbox' && hasToken()) refreshOutbox();
}

async function loadInfo() {
  try {
    const info = await control('GET', '/info');
    fill(
      $('server-info'),
      `Zulip ${info.zulip_version} · feature level ${info.zulip_feature_level}`,
      info.fixture ? h('span', { class: 'muted' }, ` · fixture ${info.fixture.split(/[\\/]/).pop()}`) : null,
    );
  } catch (err) {
    $('server-info').textContent = `Cannot reach the control API: ${err.message}`;
  }
}

async function loadSandboxes() {
  const select = $('sandbox-select');
  let names = ['default'];
  try {
    names = (await control('GET', '/sandboxes')).sandboxes;
  } catch {
    /* keep the default */
  }
  if (!names.includes(currentSandbox())) names.push(currentSandbox());
  // Rebuilding the options of an open list would close it: only when they changed.
  if ([...select.options].map((o) => o.value).join() === names.join()) return;
  fill(
    select,
    names.map((n) => h('option', { value: n, selected: n === currentSandbox() }, n)),
  );
}

async function switchSandbox(name) {
  setSandbox(name);
  $('reset-sandbox-name').textContent = name;
  await Promise.all([loadInfo(), loadJournal(), refreshClock(), refreshScenarios()]);
  if (currentPanel() === 'state') refreshState();
  if (currentPanel() === 'outbox') refreshOutbox();
}

function initReset() {
  const dialog = $('reset-dialog');
  $('reset-button').addEventListener('click', () => dialog.showModal());
  dialog.addEventListener('close', async () => {
    if (dialog.returnValue !== 'confirm') {
      $('reset-button').focus();
      return;
    }
    try {
      const { fixture } = await control('POST', '/reset', { body: {} });
      toast(`Sandbox ${currentSandbox()} reset to ${fixture ? fixture.split(/[\\/]/).pop() : 'its fixture'}.`);
    } catch (err) {
      toast(`Reset: ${err.message}`, 'error');
    }
    refreshAfterChange();
    $('reset-button').focus();
  });
}

function initToken() {
  const form = $('token-form');
  onUnauthorized((msg) => {
    form.hidden = false;
    $('token-reason').textContent = msg;
  });
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    setToken($('token-input').value.trim());
    form.hidden = true;
    switchSandbox(currentSandbox());
  });
}

async function boot() {
  initTabs();
  initJournal();
  initState();
  initScenarios();
  initClock();
  initCoverage();
  initOutbox();
  initReset();
  initToken();
  $('sandbox-select').addEventListener('change', (e) => switchSandbox(e.target.value));
  $('sandbox-select').addEventListener('focus', loadSandboxes);
  // New requests may change the state, scenario hit counts and what is scheduled.
  onJournalActivity(debounce(refreshAfterChange, 250));
  onClockChange(() => {
    if (currentPanel() === 'state') refreshState();
    if (currentPanel() === 'outbox' && hasToken()) refreshOutbox();
  });
  const first = PANELS.includes(location.hash.slice(1)) ? location.hash.slice(1) : 'journal';
  await loadSandboxes();
  await switchSandbox(currentSandbox());
  showPanel(first);
  document.body.dataset.ready = 'true';
}

boot().catch((err) => toast(`Inspector failed to start: ${err.message}`, 'error'));
