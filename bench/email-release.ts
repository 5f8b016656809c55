// What releasing a large missed-message email costs the request that happens to release it: the
// bench's notifying DM row sends an away user tens of thousands of DMs within its batching
// period, all gathered into one email. Sends them at 32 connections for SECONDS, moves the mock
// clock past the period (the control request that moves it releases the email), and prints how
// long that request and the next API requests took, and the outbox's size.
//   node --import tsx bench/email-release.ts [SECONDS]   (after npm run build)
import { load } from './lib/load.js';
import { mockApi, requests, send, startMock } from './lib/mock.js';

const seconds = Number(process.argv[2] ?? 6);
const mock = await startMock('mock', []);
try {
  const api = mockApi(mock.url);
  for (const token of [requests.iagoFcmToken(api), requests.iagoApnsToken(api)]) await send(token);
  const sent = await load({ ...requests.sendNotifyingDm(api), connections: 32, duration: seconds });
  console.log(`sent about ${Math.round(sent.rps * seconds)} notifying DMs`);
  const started = performance.now();
  await fetch(`${mock.url}/__mock/clock`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ advance_ms: 200_000 }),
  });
  console.log(`the request releasing the email: ${(performance.now() - started).toFixed(1)} ms`);
  for (let i = 0; i < 3; i++) {
    const t = performance.now();
    await send(requests.subscriptions(api));
    console.log(`an API request after it: ${(performance.now() - t).toFixed(1)} ms`);
  }
  const t = performance.now();
  const outbox = await (await fetch(`${mock.url}/__mock/outbox?kind=email`)).text();
  console.log(
    `reading the emails (${(outbox.length / 2 ** 20).toFixed(1)} MiB): ${(performance.now() - t).toFixed(1)} ms`,
  );
} finally {
  await mock.stop();
}
