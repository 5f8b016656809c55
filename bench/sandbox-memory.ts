// 1,000 sandboxes in under 300 MB: the compiled mock (dist) in a child process, one request
// (GET /users/me as Hamlet) to each of 1,000 new sandboxes, and the growth of its resident memory.
// Run alone with `node --import tsx bench/sandbox-memory.ts [count]`; `npm run bench` prints its row.
import { readFileSync } from 'node:fs';
import { authAs, HAMLET, startMock } from './lib/mock.js';

export interface SandboxMemory {
  sandboxes: number;
  rss_before_mb: number;
  rss_after_mb: number;
  rss_peak_mb: number;
  growth_mb: number;
  seconds: number;
}

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
const AUTH = authAs(HAMLET);

export async function sandboxMemory(count = 1000): Promise<SandboxMemory> {
  const child = await startMock('sandboxes', ['--max-sandboxes', String(count)]);
  try {
    const pid = child.proc.pid!;
    // The default world's first answer, so that what is loaded on first use is in "before".
    await (await fetch(`${child.url}/api/v1/users/me`, { headers: AUTH })).text();
    const before = rssMb(pid);
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, rssMb(pid));
    }, 100);
    const started = performance.now();
    // A few at a time, as test workers would, each making its sandbox with its first request.
    const PARALLEL = 8;
    let next = 0;
    await Promise.all(
      Array.from({ length: PARALLEL }, async () => {
        while (next < count) {
          const n = next++;
          const res = await fetch(`${child.url}/sandbox/s${n}/api/v1/users/me`, { headers: AUTH });
          if (res.status !== 200) throw new Error(`sandbox s${n}: ${res.status} ${await res.text()}`);
          await res.text();
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const listed = (await (await fetch(`${child.url}/__mock/sandboxes`)).json()).sandboxes as string[];
    if (listed.length !== count + 1) throw new Error(`${listed.length - 1} sandboxes listed, ${count} made`);
    // Let a garbage collection run, as it would while the sandboxes are used.
    await new Promise((r) => setTimeout(r, 1000));
    const after = rssMb(pid);
    peak = Math.max(peak, after);
    return {
      sandboxes: count,
      rss_before_mb: Math.round(before),
      rss_after_mb: Math.round(after),
      rss_peak_mb: Math.round(peak),
      growth_mb: Math.round(after - before),
      seconds: Math.round(seconds * 10) / 10,
    };
  } finally {
    await child.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`)
  console.log(JSON.stringify(await sandboxMemory(Number(process.argv[2] ?? 1000))));
