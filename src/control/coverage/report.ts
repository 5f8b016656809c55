// The coverage report: every operation the description has at a level, with what the counts saw
// of it and what they did not (documented error codes never answered, parameters never sent).
import type { Contract } from '../../contract/contract.js';
import type { ErrorCatalog } from '../scenarios/error-catalog.js';
import type { CoverageCounts, OperationCounts } from './counts.js';

const record = <K extends string | number>(map: Map<K, number> | undefined) =>
  Object.fromEntries([...(map ?? new Map<K, number>())].sort(([a], [b]) => String(a).localeCompare(String(b))));

/** The counts of several sandboxes as one. */
function merged(all: CoverageCounts[], opId: string): OperationCounts | undefined {
  const parts = all.map((c) => c.byOperation.get(opId)).filter((c): c is OperationCounts => !!c);
  if (parts.length <= 1) return parts[0];
  const out: OperationCounts = {
    calls: 0,
    statuses: new Map(),
    codes: new Map(),
    params: new Set(),
    scenarios: new Map(),
  };
  for (const p of parts) {
    out.calls += p.calls;
    for (const [k, n] of p.statuses) out.statuses.set(k, (out.statuses.get(k) ?? 0) + n);
    for (const [k, n] of p.codes) out.codes.set(k, (out.codes.get(k) ?? 0) + n);
    for (const [k, n] of p.scenarios) out.scenarios.set(k, (out.scenarios.get(k) ?? 0) + n);
    for (const k of p.params) out.params.add(k);
  }
  return out;
}

export function coverageReport(
  contract: Contract,
  catalog: ErrorCatalog,
  counts: CoverageCounts[],
  level: number,
  sandbox: string,
) {
  let called = 0;
  let codesSeen = 0;
  let codesDocumented = 0;
  let requests = 0;
  const operations = contract.operations
    .filter((op) => op.addedAt <= level && level < op.removedAt)
    .map((op) => {
      const c = merged(counts, op.id);
      const documented = catalog.documentedCodes(op.id);
      const unseen = documented.filter((code) => !c?.codes.has(code));
      const params = op.params.filter((p) => p.addedAt <= level && level < p.removedAt).map((p) => p.name);
      if (c?.calls) called++;
      requests += c?.calls ?? 0;
      codesDocumented += documented.length;
      codesSeen += documented.length - unseen.length;
      return {
        operation: op.id,
        method: op.method.toUpperCase(),
        path: op.path,
        resource: String(op.spec['x-resource'] ?? 'other'),
        calls: c?.calls ?? 0,
        statuses: record(c?.statuses),
        error_codes: record(c?.codes),
        documented_error_codes: documented,
        unseen_error_codes: unseen,
        params_used: params.filter((p) => c?.params.has(p)),
        params_unused: params.filter((p) => !c?.params.has(p)),
        scenarios: record(c?.scenarios),
      };
    });
  const since = Math.min(...counts.map((c) => c.since), Date.now());
  return {
    sandbox,
    zulip_feature_level: level,
    since,
    operations,
    totals: {
      operations_called: called,
      operations_described: operations.length,
      error_codes_seen: codesSeen,
      error_codes_documented: codesDocumented,
      requests,
    },
  };
}

export type CoverageReport = ReturnType<typeof coverageReport>;
