// The journal's memory after many requests, measured in-process (a server would need minutes
// to answer a million): real response bodies captured from the mock are recorded over and over,
// each time as fresh objects, as the server would hand them over. Run with --expose-gc:
//   node --expose-gc --import tsx bench/journal-memory.ts SAMPLES.json [COUNT]
// Prints one JSON line: memory growth (heap + external) at checkpoints, the journal's own size
// estimate, the rate.
import { readFileSync } from 'node:fs';
import { Journal } from '../src/control/journal.js';
import type { Exchange } from '../src/http/exchange.js';

export interface Sample {
  method: string;
  path: string;
  operation: string;
  params: Record<string, unknown>;
  status: number;
  body: string;
}

const [samplesFile, countArg = '1000000'] = process.argv.slice(2);
const samples = JSON.parse(readFileSync(samplesFile, 'utf8')) as Sample[];
const count = Number(countArg);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');
// The journal keeps response bodies as Buffers, outside the JavaScript heap: count both. Freed
// buffers leave the external count only once V8's concurrent sweeper is done: wait for it.
const settle = () => new Promise((resolve) => setTimeout(resolve, 200));
const heap = async () => {
  gc();
  await settle();
  gc();
  await settle();
  gc();
  const m = process.memoryUsage();
  return (m.heapUsed + m.external) / 1024 / 1024;
};

const journal = new Journal();
const base = await heap();
const checkpoints: Array<{ requests: number; heap_mb: number; entries: number; journal_estimate_mb: number }> = [];
const marks = new Set([1_000, 10_000, 100_000, count]);
const user = { email: 'hamlet@zulip.com' } as Exchange['user'];
let recordMs = 0;
for (let i = 1; i <= count; i++) {
  const s = samples[i % samples.length];
  const ex: Exchange = {
    id: i,
    time: Date.now(),
    started: performance.now(),
    duration_ms: 0.3,
    sandbox: 'default',
    method: s.method,
    path: s.path,
    operation: { id: s.operation } as Exchange['operation'],
    level: 0,
    user,
    raw: {},
    forEachSentKey: () => {},
    params: { ...s.params },
    status: s.status,
    body: JSON.parse(s.body),
    bodyBytes: Buffer.from(s.body),
    problems: [],
    scenario: null,
  };
  const t0 = performance.now();
  journal.record(ex);
  recordMs += performance.now() - t0;
  if (marks.has(i)) {
    const elapsed = recordMs;
    checkpoints.push({
      requests: i,
      heap_mb: (await heap()) - base,
      entries: journal.size,
      journal_estimate_mb: journal.approximateBytes / 1024 / 1024,
    });
    if (i === count) {
      console.log(
        JSON.stringify({
          checkpoints,
          us_per_record: (elapsed * 1000) / count,
          rss_mb: process.memoryUsage().rss / 1024 / 1024,
        }),
      );
    }
  }
}
