// npm run bench: every figure of issue 9 in one run, printed and written to bench/RESULTS.md.
// Servers run as child processes (the mock from dist/, built by `npm run bench`); autocannon runs
// here. Only 127.0.0.1 is used. BENCH_DURATION=SECONDS sets the length of each measured run.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CONNECTIONS, DURATION, WARM_S, log } from './lib/config.js';
import { ROOT } from './lib/mock.js';
import { fmt, loadTable, machine, table, targetTable, writeResults, type Row, type Target } from './lib/report.js';
import { writeMergedDescription } from './lib/description.js';
import { measureStartup } from './sections/startup.js';
import {
  OPS,
  SAME_BYTES,
  baselines,
  mockOperations,
  prism,
  prismVersion,
  readsBuiltAnew,
} from './sections/throughput.js';
import { bigState } from './sections/big-state.js';
import { journalMemory } from './sections/journal.js';
import { sandboxMemory } from './sandbox-memory.js';

const started = Date.now();
const loadBefore = os.loadavg();
const dir = mkdtempSync(path.join(os.tmpdir(), 'teamchat-bench-'));
try {
  log(`measured runs of ${DURATION} s after ${WARM_S} s of warm-up; temporary files in ${dir}`);
  log('start-up: 10 starts');
  // The fixture `npm start` serves (the rows below use the classic one, whose IDs they name).
  const startup = await measureStartup(10, ['--fixture', path.join(ROOT, 'fixtures/default.json')]);
  // The baselines answer the bytes the mock's subscriptions row answers: the classic fixture's.
  const classic = await measureStartup(1);
  const bodyFile = path.join(dir, 'subscriptions-body.json');
  writeFileSync(bodyFile, classic.subscriptionsBody);

  const base = await baselines(bodyFile);
  const mock = await mockOperations('teamchat-mock');
  const noValidation = await mockOperations('teamchat-mock, no response check', ['--no-validate-responses']);
  const anew = await readsBuiltAnew(dir);
  const prismRun = await prism(writeMergedDescription(dir));
  const big = await bigState(dir);
  log('journal: 1,000,000 requests, twice');
  const journal = journalMemory(dir, mock.samples);
  // The worst case: every request answered with the largest body (the subscriptions list).
  const largest = [...mock.samples].sort((a, b) => b.body.length - a.body.length).slice(0, 1);
  const journalWorst = journalMemory(dir, largest, 1_000_000, 'largest');
  log('sandboxes: 1,000, one request each');
  const sandboxes = await sandboxMemory(1000).catch((err: Error) => ({ error: err.message }));
  const loadAfter = os.loadavg();

  // ---- ratios and targets
  const find = (rows: Row[], server: string, op: string, conns: number) =>
    rows.find((r) => r.server.startsWith(server) && r.op.startsWith(op) && r.conns === conns)?.r ?? null;
  const all = [...base, ...mock.rows, ...prismRun.rows];
  const ratio = (a: number | undefined, b: number | undefined) => (a && b ? a / b : null);
  const ratioRows: string[][] = [];
  const ratios: Record<
    string,
    Record<number, { express: number | null; node: number | null; prism: number | null }>
  > = {};
  for (const op of [OPS.subscriptions, OPS.send]) {
    ratios[op] = {};
    for (const conns of CONNECTIONS) {
      const m = find(all, 'teamchat-mock', op, conns)?.rps;
      const x = {
        express: ratio(m, find(all, 'Express 5 lean', op, conns)?.rps),
        node: ratio(m, find(all, 'node:http', op, conns)?.rps),
        prism: ratio(m, find(all, 'Prism', op, conns)?.rps),
      };
      const protos = ratio(m, find(all, 'Express 5, prototypes', op, conns)?.rps);
      ratios[op][conns] = x;
      // CPU time per request, inverted: what the rates would be if each server had the CPU to itself.
      const cpu = (server: string) => find(all, server, op, conns)?.cpuUs ?? undefined;
      const byCpu = {
        express: ratio(cpu('Express 5 lean'), cpu('teamchat-mock')),
        prism: ratio(cpu('Prism'), cpu('teamchat-mock')),
      };
      ratioRows.push([
        op,
        String(conns),
        fmt(x.express, 2),
        fmt(protos, 2),
        fmt(x.node, 2),
        fmt(x.prism, 1),
        fmt(byCpu.express, 2),
        fmt(byCpu.prism, 1),
      ]);
    }
  }
  const costRows = mock.rows
    .filter((r) => r.r)
    .map((on) => {
      const off = noValidation.rows.find((r) => r.op === on.op && r.conns === on.conns)?.r;
      const cost = off && on.r ? 1 - on.r.rps / off.rps : null;
      const cpuCost = off?.cpuUs && on.r?.cpuUs ? on.r.cpuUs - off.cpuUs : null;
      return [
        on.op,
        String(on.conns),
        fmt(on.r!.rps),
        fmt(off?.rps),
        cost === null ? '—' : `${fmt(cost * 100, 1)} %`,
        fmt(on.r!.p50, 2),
        fmt(off?.p50, 2),
        fmt(on.r!.cpuUs),
        fmt(off?.cpuUs),
        cpuCost === null ? '—' : `${fmt(cpuCost)} µs (${fmt((cpuCost / on.r!.cpuUs!) * 100, 1)} %)`,
      ];
    });

  const met = (v: number | null | undefined, ok: (v: number) => boolean) =>
    v === null || v === undefined ? null : ok(v);
  const targets: Target[] = [
    {
      name: 'subscriptions, 32 conns: mock / Express lean',
      value: fmt(ratios[OPS.subscriptions][32].express, 2),
      target: '≥ 0.75',
      met: met(ratios[OPS.subscriptions][32].express, (v) => v >= 0.75),
    },
    {
      name: 'subscriptions, 32 conns: mock / Prism',
      value: fmt(ratios[OPS.subscriptions][32].prism, 1),
      target: '≥ 5',
      met: met(ratios[OPS.subscriptions][32].prism, (v) => v >= 5),
    },
    {
      name: 'POST /messages, 32 conns: mock / Express lean',
      value: fmt(ratios[OPS.send][32].express, 2),
      target: '≥ 0.6',
      met: met(ratios[OPS.send][32].express, (v) => v >= 0.6),
    },
    {
      name: 'POST /messages, 32 conns: mock / Prism',
      value: fmt(ratios[OPS.send][32].prism, 1),
      target: '≥ 5',
      met: met(ratios[OPS.send][32].prism, (v) => v >= 5),
    },
    ...[...base, ...mock.rows]
      .filter((r) => r.conns === 32 && r.server.startsWith('Express 5 lean'))
      .map((r) => ({
        name: `(reference) p99 at 32 conns, Express lean: ${r.op}`,
        value: `${fmt(r.r?.p99, 2)} ms`,
        target: '—',
        met: null,
      })),
    // Issue 30: reads built anew at or above Express lean answering the same bytes.
    ...[OPS.subscriptions, OPS.messages].flatMap((op) => {
      const mockRun = find(anew, 'teamchat-mock', op, 32);
      const lean = find(anew, SAME_BYTES, op, 32);
      return [
        {
          name: `${op} built anew (--no-answer-cache), 32 conns: mock / Express lean, same bytes, req/s`,
          value: fmt(ratio(mockRun?.rps, lean?.rps), 2),
          target: '≥ 1',
          met: met(ratio(mockRun?.rps, lean?.rps), (v) => v >= 1),
        },
        {
          name: `${op} built anew, 32 conns: Express lean, same bytes / mock, server CPU per request`,
          value: fmt(ratio(lean?.cpuUs ?? undefined, mockRun?.cpuUs ?? undefined), 2),
          target: '≥ 1',
          met: met(ratio(lean?.cpuUs ?? undefined, mockRun?.cpuUs ?? undefined), (v) => v >= 1),
        },
      ];
    }),
    ...anew
      .filter((r) => r.conns === 32 && r.server.startsWith('teamchat-mock'))
      .map((r) => ({
        name: `(reference) p99 at 32 conns, --no-answer-cache: ${r.op}`,
        value: `${fmt(r.r?.p99, 2)} ms`,
        target: '—',
        met: null,
      })),
    // The export archive is not an operation but the file one points to: a download of every
    // message the earlier rows sent (a MiB or less), whose time is the transfer's. No server answers
    // it in 10 ms at 32 connections (Express lean sending the same bytes takes 150-330 ms at p99), so
    // its target is Express lean's for the same bytes: the mock spends no more CPU a request.
    ...mock.rows
      .filter((r) => r.conns === 32 && r.server === 'teamchat-mock' && r.op.includes('export archive'))
      .map((r) => {
        const lean = find(mock.rows, 'Express 5 lean, the same bytes', r.op, 32);
        const value = ratio(lean?.cpuUs ?? undefined, r.r?.cpuUs ?? undefined);
        return {
          name: `${r.op}, 32 conns: Express lean, same bytes / mock, server CPU per request`,
          value: fmt(value, 2),
          target: '≥ 1',
          met: met(value, (v) => v >= 1),
        };
      }),
    ...[...mock.rows, ...big.rows]
      // Express lean's rows among them are references (the export archive's same bytes), not targets.
      .filter((r) => r.conns === 32 && r.server.startsWith('teamchat-mock') && !r.op.includes('export archive'))
      .map((r) => ({
        // The rows of another server than the main one say which (the 100k-message one, --production).
        name: `p99 at 32 conns: ${r.server === 'teamchat-mock' ? '' : `(${r.server.replace(/^teamchat-mock, /, '')}) `}${r.op}`,
        value: `${fmt(r.r?.p99, 2)} ms`,
        target: '< 10 ms',
        met: met(r.r?.p99, (v) => v < 10),
      })),
    {
      // Issue 30's target for the compiled command line's first answer (npm run bench:start has the others).
      name: 'start to first response (median of 10)',
      value: `${fmt(startup.medianMs)} ms`,
      target: '< 300 ms',
      met: startup.medianMs < 300,
    },
    {
      name: '100k messages: loaded (start to first response)',
      value: `${fmt(big.loadMs)} ms`,
      target: '< 2,000 ms',
      met: big.loadMs < 2000,
    },
    {
      name: '100k messages: RSS once loaded',
      value: `${fmt(big.rssLoadedMb)} MB`,
      target: '< 400 MB',
      met: met(big.rssLoadedMb, (v) => v < 400),
    },
    {
      name: '100k messages: matches_narrow (100 ids) p50, 1 conn',
      value: `${fmt(big.narrowP50, 2)} ms`,
      target: '< 5 ms',
      met: met(big.narrowP50, (v) => v < 5),
    },
    {
      name: '100k messages: matches_narrow (100 ids) p50, 1 conn, --no-answer-cache',
      value: `${fmt(big.narrowAnewP50, 2)} ms`,
      target: '< 5 ms',
      met: met(big.narrowAnewP50, (v) => v < 5),
    },
    ...(
      [
        ['mixed answers', journal],
        ['largest answer only', journalWorst],
      ] as const
    ).map(([what, j]) => ({
      name: `journal memory after 1,000,000 requests (${what})`,
      value: 'error' in j ? j.error : `${fmt(j.checkpoints.at(-1)!.heap_mb, 1)} MB`,
      target: '< 50 MB',
      met: 'error' in j ? null : j.checkpoints.at(-1)!.heap_mb < 50,
    })),
    {
      name: '1,000 sandboxes (one request each): RSS growth',
      value: 'error' in sandboxes ? sandboxes.error : `${fmt(sandboxes.growth_mb)} MB`,
      target: '< 300 MB',
      met: 'error' in sandboxes ? null : sandboxes.growth_mb < 300,
    },
    {
      name: 'POST /messages with --data / in memory (100k)',
      value: fmt(ratio(big.sendDataRps ?? undefined, big.sendMemoryRps ?? undefined), 2),
      target: '≥ 0.5',
      met: met(ratio(big.sendDataRps ?? undefined, big.sendMemoryRps ?? undefined), (v) => v >= 0.5),
    },
    {
      name: 'clean shutdown keeps every acknowledged message',
      value: big.durability ? `${fmt(big.durability.inFile)} in file, ${fmt(big.durability.expected)} expected` : '—',
      target: 'all',
      met: big.durability ? big.durability.inFile >= big.durability.expected && big.durability.exitCode === 0 : null,
    },
  ];

  const minutes = (Date.now() - started) / 60_000;
  const out: string[] = [
    `Run ${new Date(started).toISOString()}, ${fmt(minutes, 1)} minutes: \`npm run bench\` (measured runs of ${DURATION} s after ${WARM_S} s of warm-up).`,
    '',
    ...machine(),
    `- Load average (1/5/15 min) before: ${loadBefore.map((x) => fmt(x, 2)).join(' / ')}, after: ${loadAfter.map((x) => fmt(x, 2)).join(' / ')} (other work on the machine shows here)`,
    '',
    '### Throughput and latency',
    '',
    ...loadTable([...base, ...mock.rows, ...anew, ...prismRun.rows, ...big.rows]),
    ...(prismRun.error ? ['', `Prism could not be measured: ${prismRun.error}`] : []),
    '',
    `The mock: full request and response validation, journal on (RSS after its runs: ${fmt(mock.rssAfterMb)} MB). Its reads repeat one request with no change in between, so after the first they are answered from the answer cache (docs/api-behaviour.md, "Speed"); the \`--no-answer-cache\` rows build every answer anew. Prism ${prismVersion()} mocks the merged description (paths without /api/v1, as described).`,
    '',
    '### Ratios (requests per second)',
    '',
    ...table(
      [
        'operation',
        'conns',
        'mock / Express lean',
        'mock / Express, prototypes in place',
        'mock / node:http',
        'mock / Prism',
        'by CPU per request: mock / Express lean',
        'by CPU: mock / Prism',
      ],
      ratioRows,
    ),
    '',
    'The first four columns divide requests per second; the last two divide the servers\' CPU time per request (inverted), which the other work on a shared machine disturbs less. "Express lean" is the issue\'s ceiling (one handler, Express as it comes); "prototypes in place" is the same handler on a server that makes its requests with Express\'s prototypes, as the mock does (`src/http/express-objects.ts`): the framework\'s ceiling for the way the mock runs it.',
    '',
    '### Cost of response validation (same requests, `--no-validate-responses`)',
    '',
    ...table(
      [
        'operation',
        'conns',
        'req/s checked',
        'req/s unchecked',
        'cost',
        'p50 checked',
        'p50 unchecked',
        'CPU µs/req checked',
        'unchecked',
        'check costs',
      ],
      costRows,
    ),
    '',
    '### Start-up, memory, persistence',
    '',
    `- Start to first response (\`node dist/src/cli.js\`, the shipped default fixture, an authenticated GET /users/me/subscriptions): median ${fmt(startup.medianMs)} ms of ${startup.samplesMs.map((x) => fmt(x)).join(', ')}; RSS ${fmt(startup.rssMb)} MB.`,
    `- ${fmt(big.messages)} messages (${fmt(big.fixtureMb, 1)} MB fixture): start to first response median ${fmt(big.loadMs)} ms (${big.loadSamplesMs.map((x) => fmt(x)).join(', ')}); RSS ${fmt(big.rssLoadedMb)} MB once loaded, ${fmt(big.rssAfterRunsMb)} MB after its runs; from the --data file again: ${fmt(big.dataLoadMs)} ms.`,
    big.durability
      ? `- --data, clean shutdown (exit ${big.durability.exitCode}): ${fmt(big.durability.acknowledged)} messages acknowledged, ${fmt(big.durability.inFile)} messages in the file (at least ${fmt(big.durability.expected)} expected: the fixture's and the acknowledged ones; requests still in flight when the load stopped add a few), log left: ${fmt(big.durability.logBytes)} bytes.`
      : '- --data: not measured.',
    'error' in sandboxes
      ? `- Sandboxes: ${sandboxes.error}`
      : `- ${fmt(sandboxes.sandboxes)} sandboxes, each made by one GET /users/me (8 at a time, ${fmt(sandboxes.seconds, 1)} s): RSS ${fmt(sandboxes.rss_before_mb)} MB before, ${fmt(sandboxes.rss_after_mb)} MB after (peak ${fmt(sandboxes.rss_peak_mb)} MB), growth ${fmt(sandboxes.growth_mb)} MB.`,
    ...(
      [
        ['mixed answers', journal],
        ['largest answer only', journalWorst],
      ] as const
    ).map(([what, j]) =>
      'error' in j
        ? `- Journal (${what}): ${j.error}`
        : `- Journal, ${what} (in-process, real response bodies recorded as the server hands them over; memory = heap + external): ${j.checkpoints.map((c) => `${fmt(c.requests)} requests → ${fmt(c.heap_mb, 1)} MB, ${fmt(c.entries)} entries (own estimate ${fmt(c.journal_estimate_mb, 1)} MB)`).join('; ')}; ${fmt(j.us_per_record, 1)} µs per record.`,
    ),
    '',
    '### Targets',
    '',
    ...targetTable(targets),
  ];
  console.log(`\n${out.join('\n')}\n`);
  writeResults(path.join(ROOT, 'bench/RESULTS.md'), out);
  log('bench/RESULTS.md updated');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
