// Run lengths. BENCH_DURATION (seconds per measured run) shortens or lengthens the whole bench.
import { load, type LoadResult } from './load.js';
import { send, type Req } from './mock.js';
import type { Row } from './report.js';
import { cpuMs } from './proc.js';

export const DURATION = Number(process.env.BENCH_DURATION ?? 5);
export const WARM_S = 1;
export const CONNECTIONS = [1, 32] as const;
/** How long to wait for POST /messages to stop answering 501 (messaging work in progress). */
export const WAIT_501_S = Number(process.env.BENCH_WAIT_501 ?? 0);

export const log = (line: string) => console.log(`[bench] ${line}`);

/**
 * A warm-up run (thrown away), then the measured run; with the server's `pid`, also its CPU time
 * per request, which on a busy machine says more than the request rate does.
 */
export async function measure(req: Req, connections: number, pid?: number, duration = DURATION): Promise<LoadResult> {
  await load({ ...req, connections, duration: WARM_S });
  const before = cpuMs(pid);
  const r = await load({ ...req, connections, duration });
  const after = cpuMs(pid);
  const answered = r.ok + Object.values(r.bad).reduce((a, b) => a + b, 0);
  return { ...r, cpuUs: before !== null && after !== null && answered ? ((after - before) * 1000) / answered : null };
}

/**
 * The row of an operation that succeeds once and then refuses (the thing is gone or there
 * already, a weekly limit reached, the organization deactivated): its single successful calls
 * are timed elsewhere, and under load the same request again meets the refusal a retrying client
 * meets, which is what this row times at `connections` (labelled with its status and code).
 */
export async function refusedAgainRow(
  server: string,
  op: string,
  req: Req,
  connections: number,
  pid?: number,
): Promise<Row> {
  const probe = await send(req);
  if (probe.status < 400 || probe.status >= 500)
    throw new Error(`${op} again answered ${probe.status}, not a refusal: ${probe.text.slice(0, 200)}`);
  const code = typeof probe.json?.code === 'string' ? probe.json.code : '';
  const label = `${op} (again: ${probe.status}${code ? ` ${code}` : ''})`;
  log(`${server}: ${label} at ${connections} connection(s)`);
  return {
    server,
    op: label,
    conns: connections,
    r: await measure({ ...req, expectStatus: probe.status }, connections, pid),
  };
}
