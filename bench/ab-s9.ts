// temporary A/B (not committed)
import path from 'node:path';
import { measure } from './lib/config.js';
import { mockApi, requests, send } from './lib/mock.js';
import { spawnServer } from './lib/proc.js';
import { startBotListener } from './lib/bot-listener.js';
const roots = (process.env.AB_ROOTS ?? '/tmp/s9-base,/work/wt/s9-notify').split(',');
const ops = (process.env.OPS ?? 'send,hook,dm,dm3').split(',');
const secs = Number(process.env.SECS ?? 2);
const rounds = Number(process.env.ROUNDS ?? 3);
const res: Record<string, number[]> = {};
for (let round = 0; round < rounds; round++)
  for (const root of roots) {
    const child = await spawnServer('mock', process.execPath, [path.join(root, 'dist/src/cli.js'), '--port', '0', '--quiet', '--fixture', path.join(root, 'fixtures/classic.json')], { cwd: root });
    const api = mockApi(child.url);
    const bot = await startBotListener();
    await send(requests.createOutgoingBot(api, bot.url));
    for (const op of ops) {
      if (op === 'dm3') for (const token of [requests.iagoFcmToken(api), requests.iagoApnsToken(api)]) await send(token);
      const req = op === 'send' ? requests.sendMessage(api) : op === 'hook' ? requests.mentionOutgoingBot(api) : requests.sendNotifyingDm(api);
      const r = await measure(req, 32, child.proc.pid, secs);
      (res[`${op} ${root}`] ??= []).push(r.cpuUs!);
      console.log(`${root.padEnd(20)} ${op}: ${r.rps.toFixed(0)} req/s p50 ${r.p50.toFixed(2)} p99 ${r.p99.toFixed(2)} ${r.cpuUs?.toFixed(0)} µs`);
    }
    await bot.close();
    await child.stop();
  }
for (const [k, v] of Object.entries(res).sort()) console.log(k.padEnd(40), 'cpu µs min', Math.min(...v).toFixed(0), 'median', v.sort((a, b) => a - b)[v.length >> 1].toFixed(0), 'all', v.map((x) => x.toFixed(0)).join(' '));
