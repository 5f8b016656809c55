// Only issue 27's rows (organization, exports, own account, invitations, navigation views at 32
// connections), measured without the whole bench.   node --import tsx bench/organization-rows.ts [SECONDS]   (after npm run build)
import { mockApi, startMock } from './lib/mock.js';
import { organizationRows } from './sections/organization-ops.js';
import { invitationRows } from './sections/invitation-ops.js';

process.env.BENCH_DURATION ??= process.argv[2] ?? '3';
const mock = await startMock('mock', []);
try {
  const api = mockApi(mock.url);
  const rows = [...(await organizationRows('mock', mock.url, api, mock.proc.pid)), ...(await invitationRows('mock'))];
  for (const { server, op, r, note } of rows) {
    const label = server === 'mock' ? op : `${op} [${server}]`;
    if (!r) console.log(`${label}: ${note}`);
    else
      console.log(
        `${label}: ${r.rps.toFixed(0)} req/s, p50 ${r.p50.toFixed(2)} ms, p99 ${r.p99.toFixed(2)} ms, ${r.cpuUs?.toFixed(0)} µs CPU a request ${Object.keys(r.bad).length ? JSON.stringify(r.bad) : ''}${note ? ` (${note})` : ''}`,
      );
  }
} finally {
  await mock.stop();
}
