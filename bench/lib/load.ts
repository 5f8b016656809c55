// One load run with autocannon, in this (the driver's) process: requests per second and latency
// percentiles. autocannon's own histogram keeps whole milliseconds; the percentiles here come
// from every response's exact time, so sub-millisecond latencies at one connection stay visible.
import autocannon from 'autocannon';

export interface LoadSpec {
  url: string;
  method?: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  /** Seconds. */
  duration: number;
  /**
   * The status every answer should have when the row measures a refusal (e.g. 400 for a name
   * already in use); by default any 2xx. Only answers with the expected status are timed.
   */
  expectStatus?: number;
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  ok: number;
  /** Responses without the expected status (by default: not 2xx), by status; connection errors and timeouts. */
  bad: Record<string, number>;
  errors: number;
  /** The server's CPU time per answered request, µs (when its process was given). */
  cpuUs?: number | null;
}

function percentile(sorted: Float64Array, p: number): number {
  if (!sorted.length) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export async function load(spec: LoadSpec): Promise<LoadResult> {
  const times: number[] = [];
  const instance = autocannon({
    url: spec.url,
    method: spec.method ?? 'GET',
    headers: spec.headers,
    body: spec.body,
    connections: spec.connections,
    duration: spec.duration,
    timeout: 10,
  });
  const expected = (status: number) =>
    spec.expectStatus === undefined ? status >= 200 && status < 300 : status === spec.expectStatus;
  instance.on('response', (_client: unknown, status: number, _bytes: number, ms: number) => {
    if (expected(status)) times.push(ms);
  });
  const result = await instance;
  const sorted = Float64Array.from(times).sort();
  const bad: Record<string, number> = {};
  for (const [code, { count }] of Object.entries(result.statusCodeStats))
    if (!expected(Number(code))) bad[code] = count;
  return {
    rps: times.length / result.duration,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    ok: times.length,
    bad,
    errors: result.errors + result.timeouts,
  };
}
