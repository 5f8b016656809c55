// What `verify` prints and writes: one line per operation, a summary, and the same as JSON or as
// JUnit XML (the format CI servers show as test results).
import { writeFileSync } from 'node:fs';
import type { StepResult, VerifyRun } from './suite.js';

const describe = (r: StepResult) => r.problems.map((p) => `${p.path || '/'}: ${p.message}`).join('; ');

export function lines(run: VerifyRun): string[] {
  return run.results.map(
    (r) =>
      `${r.ok ? 'ok  ' : 'DIFF'} ${r.operation} ${r.method} ${r.path} ${r.status}${r.ok ? '' : `: ${describe(r)}`}`,
  );
}

export function summary(run: VerifyRun): string {
  const bad = run.results.filter((r) => !r.ok).length;
  return `verified ${run.results.length} operations of ${run.target} at feature level ${run.level}: ${run.results.length - bad} ok, ${bad} differ from the description (${(run.duration_ms / 1000).toFixed(1)} s)`;
}

const xml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');

function junit(run: VerifyRun): string {
  const failures = run.results.filter((r) => !r.ok).length;
  const cases = run.results.map((r) => {
    const name = xml(`${r.operation} ${r.method} ${r.path}`);
    if (r.ok) return `  <testcase classname="teamchat-mock.verify" name="${name}"/>`;
    return `  <testcase classname="teamchat-mock.verify" name="${name}">\n    <failure message="${xml(describe(r))}">${xml(r.problems.map((p) => `${p.path || '/'}: ${p.message}`).join('\n'))}</failure>\n  </testcase>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuite name="${xml(`teamchat-mock verify ${run.target} (feature level ${run.level})`)}" tests="${run.results.length}" failures="${failures}" errors="0">\n${cases.join('\n')}\n</testsuite>\n`;
}

/** JUnit XML when the name ends in .xml, JSON otherwise. */
export function writeReport(file: string, run: VerifyRun): void {
  writeFileSync(
    file,
    file.toLowerCase().endsWith('.xml')
      ? junit(run)
      : `${JSON.stringify({ ...run, summary: summary(run) }, null, 2)}\n`,
  );
}
