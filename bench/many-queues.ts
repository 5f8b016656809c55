// What a message costs when its recipients hold many event queues: a test suite that registers
// in every test and never deletes its queues leaves a user up to the mock's 1,000 (the real
// server keeps them too, until their idle timeout), and every message then goes to each. Prints,
// for a sender holding N queues of event_types message, the DM's rate and server CPU per request
// at 1 connection (a fresh mock per N).
//   node --import tsx bench/many-queues.ts [SECONDS]   (after npm run build)
import { load } from './lib/load.js';
import { mockApi, requests, send, startMock } from './lib/mock.js';
import { cpuMs } from './lib/proc.js';

const seconds = Number(process.argv[2] ?? 3);
for (const queues of [1, 100, 1000]) {
  const mock = await startMock('mock', []);
  try {
    const api = mockApi(mock.url);
    for (let i = 0; i < queues; i++) await send(requests.register(api));
    await load({ ...requests.sendNotifyingDm(api), connections: 1, duration: 1 });
    const before = cpuMs(mock.proc.pid);
    const r = await load({ ...requests.sendNotifyingDm(api), connections: 1, duration: seconds });
    const cpu = (((cpuMs(mock.proc.pid) ?? 0) - (before ?? 0)) * 1000) / Math.max(1, r.ok);
    console.log(
      `${String(queues).padStart(5)} queues: ${r.rps.toFixed(0).padStart(6)} DMs/s, p50 ${r.p50.toFixed(2)} ms, ${cpu.toFixed(0)} µs CPU a DM`,
    );
  } finally {
    await mock.stop();
  }
}
