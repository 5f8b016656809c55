// The coverage report as one self-contained HTML page (inline style, no script, no network), for
// a CI job to publish as an artifact: the same picture as the inspector's Coverage tab.
import type { CoverageReport } from './report.js';

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

type Op = CoverageReport['operations'][number];

function level(op: Op): string {
  if (!op.calls) return 'none';
  const documented = op.documented_error_codes.length;
  if (!documented) return 'full';
  const seen = documented - op.unseen_error_codes.length;
  return seen === documented ? 'full' : seen * 2 >= documented ? 'some' : 'low';
}

function cell(op: Op): string {
  const chips = op.documented_error_codes
    .map((code) => {
      const seen = !op.unseen_error_codes.includes(code);
      return `<li class="chip ${seen ? 'seen' : 'unseen'}" title="${seen ? 'answered' : 'never answered'}">${escape(code)}</li>`;
    })
    .join('');
  return (
    `<li class="op ${level(op)}" data-operation="${escape(op.operation)}"><b>${escape(op.operation)}</b> <span>${op.calls} call${op.calls === 1 ? '' : 's'}</span>` +
    `<div class="path">${escape(op.method)} ${escape(op.path)}</div>` +
    (op.params_unused.length
      ? `<div class="params">never sent: ${op.params_unused.map(escape).join(', ')}</div>`
      : '') +
    (chips ? `<ul class="chips">${chips}</ul>` : '') +
    '</li>'
  );
}

export function coverageHtml(report: CoverageReport): string {
  const byResource = new Map<string, Op[]>();
  for (const op of report.operations) byResource.set(op.resource, [...(byResource.get(op.resource) ?? []), op]);
  const rows = [...byResource]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(
      ([resource, ops]) =>
        `<section><h2>${escape(resource)} <small>${ops.filter((o) => o.calls).length}/${ops.length} called</small></h2><ul class="ops">${ops.map(cell).join('')}</ul></section>`,
    )
    .join('\n');
  const t = report.totals;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>teamchat-mock coverage</title>
<style>
body { font: 14px system-ui, sans-serif; margin: 1.5rem; }
h1 { font-size: 1.3rem; } h2 { font-size: 1rem; margin: 1rem 0 .4rem; } small, .path, .params { color: #666; }
.ops { list-style: none; padding: 0; margin: 0; display: grid; gap: .5rem; grid-template-columns: repeat(auto-fill, minmax(16rem, 1fr)); }
.op { border: 1px solid #ccc; border-radius: .4rem; padding: .5rem; }
.op.none { background: #eee; } .op.low { background: #d7ecd8; } .op.some { background: #a9d5ab; } .op.full { background: #74b977; }
.path, .params { font: 12px ui-monospace, monospace; overflow-wrap: anywhere; }
.chips { list-style: none; padding: 0; margin: .3rem 0 0; display: flex; flex-wrap: wrap; gap: .3rem; }
.chip { border-radius: 1rem; padding: 0 .5rem; font: 11px ui-monospace, monospace; }
.chip.seen { background: #2e7d32; color: #fff; } .chip.unseen { border: 1px dashed #555; }
</style></head><body>
<h1>teamchat-mock coverage</h1>
<p id="totals">${t.operations_called} of ${t.operations_described} operations called, ${t.error_codes_seen} of ${t.error_codes_documented} documented errors seen, ${t.requests} requests (sandbox ${escape(report.sandbox)}, feature level ${report.zulip_feature_level}, since ${new Date(report.since).toISOString()}).</p>
${rows}
</body></html>
`;
}
