// A generated 100,000-message state: load time, RSS, matches_narrow over 100 IDs, and
// POST /messages in memory versus with --data persistence (snapshot + append log), checking after
// a clean shutdown that every acknowledged message is in the file.
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DURATION, WARM_S, log, measure } from '../lib/config.js';
import { load } from '../lib/load.js';
import { HAMLET, ROOT, mockApi, requests, timeToFirstResponse } from '../lib/mock.js';
import { cpuMs, rssMb } from '../lib/proc.js';
import type { Row } from '../lib/report.js';
import { generateState, receivedIds } from '../gen-state.js';
import { median } from './startup.js';
import type { State } from '../../src/store/state.js';

export interface BigState {
  messages: number;
  fixtureMb: number;
  loadMs: number;
  loadSamplesMs: number[];
  rssLoadedMb: number | null;
  rssAfterRunsMb: number | null;
  rows: Row[];
  narrowP50: number | null;
  /** The same with every answer built anew (--no-answer-cache). */
  narrowAnewP50: number | null;
  sendMemoryRps: number | null;
  sendDataRps: number | null;
  dataLoadMs: number | null;
  durability: {
    acknowledged: number;
    inFile: number;
    expected: number;
    logBytes: number;
    exitCode: number | null;
  } | null;
}

export async function bigState(dir: string, total = 100_000, starts = 3): Promise<BigState> {
  log(`generating a ${total.toLocaleString('en-US')}-message state`);
  const base = JSON.parse(readFileSync(path.join(ROOT, 'fixtures/classic.json'), 'utf8')) as State;
  const state = generateState(base, total);
  const ids = receivedIds(state, HAMLET.userId, 100);
  const fixture = path.join(dir, 'big-state.json');
  writeFileSync(fixture, JSON.stringify(state));
  const fixtureMb = statSync(fixture).size / 2 ** 20;
  const messages = state.messages.length;

  const samples: number[] = [];
  let rssLoadedMb: number | null = null;
  let running = null;
  const rows: Row[] = [];
  const server = 'teamchat-mock, 100k messages';
  let narrowAnewP50: number | null = null;
  for (let i = 0; i < starts; i++) {
    log(`loading it (${i + 1}/${starts})`);
    // The first start builds every answer anew: matches_narrow's own cost on this state.
    const anew = i === 0 && starts > 1;
    const { child, ms } = await timeToFirstResponse(`mock (100k) ${i + 1}`, [
      '--fixture',
      fixture,
      ...(anew ? ['--no-answer-cache'] : []),
    ]);
    samples.push(ms);
    rssLoadedMb = rssMb(child.proc.pid);
    if (anew) {
      log(`${server}, --no-answer-cache: matches_narrow at 1`);
      const r = await measure(requests.matchesNarrow(mockApi(child.url), ids), 1, child.proc.pid);
      rows.push({ server: `${server}, --no-answer-cache`, op: 'GET /messages/matches_narrow (100 ids)', conns: 1, r });
      narrowAnewP50 = r.p50;
    }
    if (i < starts - 1) await child.stop();
    else running = child;
  }
  const api = mockApi(running!.url);
  let sendMemoryRps: number | null = null;
  let rssAfterRunsMb: number | null = null;
  try {
    for (const conns of [1, 32]) {
      log(`${server}: matches_narrow at ${conns}`);
      rows.push({
        server,
        op: 'GET /messages/matches_narrow (100 ids)',
        conns,
        r: await measure(requests.matchesNarrow(api, ids), conns, running!.proc.pid),
      });
    }
    log(`${server}: POST /messages at 32, in memory`);
    const r = await measure(requests.sendMessage(api), 32, running!.proc.pid);
    sendMemoryRps = r.rps;
    rows.push({ server, op: 'POST /messages, in memory', conns: 32, r });
    rssAfterRunsMb = rssMb(running!.proc.pid);
  } finally {
    await running!.stop();
  }

  // --data: the file does not exist yet, so the server starts from the fixture and snapshots it.
  const data = path.join(dir, 'data.json');
  const { child } = await timeToFirstResponse('mock (100k, --data)', ['--fixture', fixture, '--data', data]);
  let durability: BigState['durability'] = null;
  let sendDataRps: number | null = null;
  let dataLoadMs: number | null = null;
  try {
    for (let i = 0; i < 200 && !existsSync(data); i++) await new Promise((res) => setTimeout(res, 50));
    log(`${server}: POST /messages at 32, with --data`);
    const req = { ...requests.sendMessage(mockApi(child.url)), connections: 32 };
    const warm = await load({ ...req, duration: WARM_S });
    const cpuBefore = cpuMs(child.proc.pid);
    const r = await load({ ...req, duration: DURATION });
    const cpuAfter = cpuMs(child.proc.pid);
    if (cpuBefore !== null && cpuAfter !== null && r.ok) r.cpuUs = ((cpuAfter - cpuBefore) * 1000) / r.ok;
    sendDataRps = r.rps;
    rows.push({ server, op: 'POST /messages, --data persistence', conns: 32, r });
    const exitCode = await child.stop();
    const saved = JSON.parse(readFileSync(data, 'utf8')) as State;
    const logFile = `${data}.log`;
    durability = {
      acknowledged: warm.ok + r.ok,
      inFile: saved.messages.length,
      expected: messages + warm.ok + r.ok,
      logBytes: existsSync(logFile) ? statSync(logFile).size : 0,
      exitCode,
    };
    // Start again from the data file alone (snapshot + log): how long that load takes.
    const again = await timeToFirstResponse('mock (from --data)', ['--data', data]);
    dataLoadMs = again.ms;
    await again.child.stop();
  } finally {
    await child.stop();
  }
  const narrow1 = rows.find((x) => x.server === server && x.op.includes('matches_narrow') && x.conns === 1);
  return {
    messages,
    fixtureMb,
    loadMs: median(samples),
    loadSamplesMs: samples,
    rssLoadedMb,
    rssAfterRunsMb,
    rows,
    narrowP50: narrow1?.r?.p50 ?? null,
    narrowAnewP50,
    sendMemoryRps,
    sendDataRps,
    dataLoadMs,
    durability,
  };
}
