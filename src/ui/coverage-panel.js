// The Coverage panel: what the requests so far exercised, as a picture. One row per resource,
// one cell per operation coloured by how much of it was exercised (called at all, and how many
// of its documented error codes were answered); under each operation its documented error codes
// as chips, seen or not. "Try it" on an unseen error activates a scenario that answers the next
// matching call with that error: the shipped scenario of that name when there is one, otherwise
// a one-rule scenario made from the error catalogue.
import { h, fill, toast } from './dom.js';
import { control } from './api.js';

const $ = (id) => document.getElementById(id);

/** 0 (never called) to 1 (called, and every documented error answered). */
function exercised(op) {
  if (!op.calls) return 0;
  const documented = op.documented_error_codes.length;
  return documented ? 0.25 + (0.75 * (documented - op.unseen_error_codes.length)) / documented : 1;
}

const level = (f) => (f === 0 ? 'none' : f < 0.5 ? 'low' : f < 1 ? 'some' : 'full');
const scenarioNameFor = (code) => code.toLowerCase().replace(/_/g, '-');

async function tryError(op, code, available) {
  const shipped = available.find((s) => s.name === scenarioNameFor(code));
  const body = shipped
    ? { name: shipped.name }
    : {
        definition: {
          name: `try-${op.operation}-${scenarioNameFor(code)}`,
          description: `Answers the next ${op.operation} call with ${code} (made by the coverage panel).`,
          rules: [{ operation: op.operation, once: true, respond: { error: code } }],
        },
      };
  try {
    await control('POST', '/scenarios', { body });
    toast(
      shipped
        ? `Scenario ${shipped.name} activated: ${shipped.description}`
        : `The next ${op.operation} call answers ${code}.`,
    );
  } catch (err) {
    toast(`Try ${code}: ${err.message}`, 'error');
  }
}

function chip(op, code, available) {
  const seen = !op.unseen_error_codes.includes(code);
  return h(
    'li',
    { class: `chip ${seen ? 'seen' : 'unseen'}`, 'data-code': code },
    h('span', { class: 'chip-code' }, code),
    seen
      ? h('span', { class: 'visually-hidden' }, ' (seen)')
      : h(
          'button',
          {
            type: 'button',
            class: 'chip-try',
            'aria-label': `Try ${code} on ${op.operation}`,
            onclick: () => tryError(op, code, available),
          },
          'try it',
        ),
  );
}

function cell(op, available) {
  const f = exercised(op);
  return h(
    'li',
    {
      class: `op-cell level-${level(f)}`,
      'data-operation': op.operation,
      'data-level': level(f),
      title: `${op.method} ${op.path}`,
    },
    h(
      'div',
      { class: 'op-head' },
      h('span', { class: 'op-name' }, op.operation),
      h('span', { class: 'op-calls' }, `${op.calls} call${op.calls === 1 ? '' : 's'}`),
    ),
    h('p', { class: 'op-path mono muted' }, `${op.method} ${op.path}`),
    op.documented_error_codes.length
      ? h(
          'ul',
          { class: 'chips', 'aria-label': `Documented errors of ${op.operation}` },
          op.documented_error_codes.map((c) => chip(op, c, available)),
        )
      : null,
  );
}

export async function refreshCoverage() {
  try {
    const [report, { available }] = await Promise.all([control('GET', '/coverage'), control('GET', '/scenarios')]);
    const byResource = new Map();
    for (const op of report.operations) byResource.set(op.resource, [...(byResource.get(op.resource) ?? []), op]);
    const rows = [...byResource]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([resource, ops]) =>
        h(
          'section',
          { class: 'coverage-row', 'data-resource': resource },
          h(
            'h3',
            { class: 'coverage-resource' },
            resource,
            h('span', { class: 'muted' }, ` · ${ops.filter((o) => o.calls).length}/${ops.length} called`),
          ),
          h(
            'ul',
            { class: 'op-cells' },
            ops.map((op) => cell(op, available)),
          ),
        ),
      );
    fill($('coverage-rows'), rows);
    const t = report.totals;
    $('coverage-summary').textContent =
      `${t.operations_called} of ${t.operations_described} operations called, ` +
      `${t.error_codes_seen} of ${t.error_codes_documented} documented errors seen, ${t.requests} requests.`;
  } catch (err) {
    toast(`Coverage: ${err.message}`, 'error');
  }
}

export function initCoverage() {
  $('coverage-reset').addEventListener('click', async () => {
    try {
      await control('DELETE', '/coverage');
    } catch (err) {
      toast(`Coverage: ${err.message}`, 'error');
    }
    await refreshCoverage();
  });
}
