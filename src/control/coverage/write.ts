// --coverage-report FILE: the report written at shutdown, as HTML when the name says so, else JSON.
import { writeFileSync } from 'node:fs';
import { coverageHtml } from './html.js';
import type { CoverageReport } from './report.js';

export function writeCoverageReport(file: string, report: CoverageReport): void {
  writeFileSync(
    file,
    file.toLowerCase().endsWith('.html') ? coverageHtml(report) : `${JSON.stringify(report, null, 2)}\n`,
  );
}
