// Run lengths. BENCH_DURATION (seconds per measured run) shortens or lengthens the whole bench.
import { load, type LoadResult } from './load.js';
import type { Req } from './mock.js';
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
