// The Scenarios panel: every scenario of the server's scenarios/ folder with an on/off switch,
// and for the active ones their hit counts, state and rules. Switching one on makes the very
// next matching API call answer as the scenario says.
import { h, fill, toast } from './dom.js';
import { control } from './api.js';

const $ = (id) => document.getElementById(id);

function ruleList(active) {
  if (!active?.rules?.length) return null;
  return h(
    'ul',
    { class: 'rules' },
    active.rules.map((r) =>
      h(
        'li',
        {},
        h('code', {}, r.summary),
        h('span', { class: 'muted' }, ` · fired ${r.hits} of ${r.calls} matching call${r.calls === 1 ? '' : 's'}`),
      ),
    ),
  );
}

function scenarioItem(item, active) {
  const id = `scenario-${item.name}`;
  const hits = active?.hits ?? 0;
  const input = h('input', {
    type: 'checkbox',
    role: 'switch',
    id,
    class: 'switch',
    checked: !!active,
    'aria-describedby': `${id}-desc`,
    onchange: () => toggle(item.name, input),
  });
  return h(
    'li',
    { class: `scenario${active ? ' active' : ''}`, 'data-name': item.name },
    h(
      'div',
      { class: 'scenario-head' },
      input,
      h('label', { for: id }, h('span', { class: 'scenario-name' }, item.name)),
      h('span', { class: `hits${hits ? ' has-hits' : ''}` }, `${hits} hit${hits === 1 ? '' : 's'}`),
      active ? h('span', { class: 'tag' }, `state: ${active.state}`) : null,
    ),
    h(
      'p',
      { id: `${id}-desc`, class: 'scenario-desc' },
      item.description || 'No description.',
      item.file ? h('span', { class: 'muted' }, ` (${item.file})`) : null,
    ),
    ruleList(active),
  );
}

async function toggle(name, input) {
  const on = input.checked;
  input.disabled = true;
  try {
    if (on) await control('POST', '/scenarios', { body: { name } });
    else await control('DELETE', '/scenarios', { body: { name } });
    toast(`Scenario ${name} ${on ? 'activated' : 'deactivated'}`);
  } catch (err) {
    input.checked = !on;
    toast(`Scenario ${name}: ${err.message}`, 'error');
  }
  input.disabled = false;
  await refreshScenarios();
}

export async function refreshScenarios() {
  try {
    const { active, available } = await control('GET', '/scenarios');
    const activeByName = new Map(active.map((a) => [a.name, a]));
    // Scenarios activated inline or from a file outside scenarios/ are listed too.
    const extra = active
      .filter((a) => !available.some((s) => s.name === a.name))
      .map((a) => ({ name: a.name, description: a.description, file: a.source }));
    const focusedName = document.activeElement?.closest?.('#scenario-list li')?.dataset.name;
    fill(
      $('scenario-list'),
      [...available, ...extra].map((s) => scenarioItem(s, activeByName.get(s.name))),
    );
    if (focusedName) document.getElementById(`scenario-${focusedName}`)?.focus();
    $('scenario-count').textContent = active.length ? String(active.length) : '';
    $('scenarios-off').disabled = active.length === 0;
    $('scenario-summary').textContent = `${available.length} available, ${active.length} active in this sandbox.`;
  } catch (err) {
    toast(`Scenarios: ${err.message}`, 'error');
  }
}

export function initScenarios() {
  $('scenarios-off').addEventListener('click', async () => {
    try {
      const { deactivated } = await control('DELETE', '/scenarios');
      toast(`Deactivated: ${deactivated.join(', ') || 'none'}`);
    } catch (err) {
      toast(`Scenarios: ${err.message}`, 'error');
    }
    await refreshScenarios();
  });
}
