// What the requests of one sandbox exercised, counted as they are recorded: independent of the
// journal, whose bound drops old entries, so that a long CI run loses no counts. A few map
// increments per request; the report is built only when asked for.
import type { Exchange } from '../../http/exchange.js';

export interface OperationCounts {
  calls: number;
  statuses: Map<number, number>;
  codes: Map<string, number>;
  params: Set<string>;
  scenarios: Map<string, number>;
}

const bump = <K>(map: Map<K, number>, key: K) => map.set(key, (map.get(key) ?? 0) + 1);

export class CoverageCounts {
  readonly byOperation = new Map<string, OperationCounts>();
  since = Date.now();

  record(ex: Exchange): void {
    const op = ex.operation;
    if (!op) return;
    let counts = this.byOperation.get(op.id);
    if (!counts)
      this.byOperation.set(
        op.id,
        (counts = { calls: 0, statuses: new Map(), codes: new Map(), params: new Set(), scenarios: new Map() }),
      );
    counts.calls++;
    bump(counts.statuses, ex.status);
    const code = ex.status >= 400 ? (ex.body as { code?: unknown } | null)?.code : undefined;
    if (typeof code === 'string') bump(counts.codes, code);
    if (ex.scenario) bump(counts.scenarios, ex.scenario);
    // The parameters the client sent (not the defaults the decoder filled in).
    for (const name of op.pathParamNames) counts.params.add(name);
    ex.forEachSentKey((key) => {
      if (op.paramsByName.has(key)) counts.params.add(key);
    });
  }

  clear(): void {
    this.byOperation.clear();
    this.since = Date.now();
  }
}
