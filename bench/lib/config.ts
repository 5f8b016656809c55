// Run lengths. BENCH_DURATION (seconds per measured run) shortens or lengthens the whole bench.
import { load, type LoadResult } from './load.js';
import type { Req } from './mock.js';

export const DURATION = Number(process.env.BENCH_DURATION ?? 5);
export const WARM_S = 1;
export const CONNECTIONS = [1, 32] as const;
/** How long to wait for POST /messages to stop answering 501 (messaging work in progress). */
export const WAIT_501_S = Number(process.env.BENCH_WAIT_501 ?? 0);

export const log = (line: string) => console.log(`[bench] ${line}`);

/** A warm-up run (thrown away), then the measured run. */
export async function measure(req: Req, connections: number, duration = DURATION): Promise<LoadResult> {
  await load({ ...req, connections, duration: WARM_S });
  return load({ ...req, connections, duration });
}
