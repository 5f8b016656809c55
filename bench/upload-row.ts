// Only the upload row (POST /user_uploads, a small file, 32 connections): what the issue asks of
// uploads, measured without the whole bench.   node --import tsx bench/upload-row.ts [SECONDS]
import { measure } from './lib/config.js';
import { mockApi, requests, send, startMock } from './lib/mock.js';

const duration = Number(process.argv[2] ?? '5');
const mock = await startMock('mock', []);
try {
  const req = requests.uploadFile(mockApi(mock.url));
  const probe = await send(req);
  if (probe.status !== 200) throw new Error(`upload answered ${probe.status}: ${probe.text}`);
  const r = await measure(req, 32, mock.proc.pid, duration);
  console.log(
    `POST /user_uploads (small file), 32 conns: ${r.rps.toFixed(0)} req/s, p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms, ${r.cpuUs?.toFixed(0)} µs of server CPU a request ${Object.keys(r.bad).length ? JSON.stringify(r.bad) : ''}`,
  );
} finally {
  await mock.stop();
}
