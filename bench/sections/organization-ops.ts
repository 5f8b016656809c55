// The organization, export and own-account operations of issue 27, one row each at 32
// connections (the p99 < 10 ms target). Operations that succeed once and then refuse (an export
// past the weekly limit of 5, a domain added or removed already, deactivating the organization)
// cannot succeed under load: their rows give the time of single calls, and a second row times
// the same request again at 32 connections, refused (refusedAgainRow).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CONNECTIONS, log, measure, refusedAgainRow } from '../lib/config.js';
import { authAs, DESDEMONA, formAs, formRequest, HAMLET, IAGO, ROOT, send, type Api, type Req } from '../lib/mock.js';
import { spawnServer } from '../lib/proc.js';
import type { Row } from '../lib/report.js';

const BOUNDARY = 'teamchat-bench-avatar';
/** A 1x1 GIF without a colour table: every byte is ASCII, so the body travels as a string. */
const GIF = String.fromCharCode(
  ...[
    0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 1, 0, 1, 0, 0, 0, 0, 0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 0x01, 0, 0x3b,
  ],
);
const avatarBody = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="me.gif"\r\nContent-Type: image/gif\r\n\r\n${GIF}\r\n--${BOUNDARY}--\r\n`;

/** Each row's label and request (exported for bench/profile.ts). */
export function requestsOf(api: Api, site: string, exportPath: string | null): Array<[string, Req]> {
  const rows: Array<[string, Req]> = [
    ['GET /export/realm', { url: api('/export/realm'), method: 'GET', headers: authAs(IAGO) }],
    ['GET /export/realm/consents', { url: api('/export/realm/consents'), method: 'GET', headers: authAs(IAGO) }],
    ['GET /realm/domains', { url: api('/realm/domains'), method: 'GET', headers: authAs(HAMLET) }],
    [
      'PATCH /realm/domains/{domain}',
      formRequest(api('/realm/domains/zulip.com'), { allow_subdomains: 'false' }, formAs(DESDEMONA), 'PATCH'),
    ],
    [
      'PATCH /realm/user_settings_defaults',
      formRequest(api('/realm/user_settings_defaults'), { twenty_four_hour_time: 'true' }, formAs(IAGO), 'PATCH'),
    ],
    [
      'POST /realm/test_welcome_bot_custom_message',
      formRequest(
        api('/realm/test_welcome_bot_custom_message'),
        { welcome_message_custom_text: 'Welcome!' },
        formAs(IAGO),
      ),
    ],
    [
      'PATCH /users/{email}',
      formRequest(api('/users/othello@zulip.com'), { full_name: 'Othello, the Moor of Venice' }, formAs(IAGO), 'PATCH'),
    ],
    [
      'POST /users/me/avatar (1x1 GIF)',
      {
        url: api('/users/me/avatar'),
        method: 'POST',
        headers: { ...authAs(HAMLET), 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
        body: avatarBody,
      },
    ],
    ['DELETE /users/me/avatar', { url: api('/users/me/avatar'), method: 'DELETE', headers: authAs(HAMLET) }],
    [
      'PATCH /users/me/profile_data',
      formRequest(
        api('/users/me/profile_data'),
        { data: JSON.stringify([{ id: 1, value: '+1-555-0100' }]) },
        formAs(HAMLET),
        'PATCH',
      ),
    ],
    [
      'DELETE /users/me/profile_data',
      formRequest(api('/users/me/profile_data'), { data: '[3]' }, formAs(HAMLET), 'DELETE'),
    ],
  ];
  if (exportPath)
    rows.push([
      'GET /user_avatars/exports/... (export archive)',
      { url: `${site}${exportPath}`, method: 'GET', headers: {} },
    ]);
  return rows;
}

/** Prepares a finished export (the clock moved on through the control API), then measures each operation at 32 connections. */
export async function organizationRows(server: string, url: string, api: Api, pid: number | undefined): Promise<Row[]> {
  const control = (path: string, payload: unknown) =>
    fetch(`${url}/__mock${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(payload),
    });
  const rows: Row[] = [];
  const conns = CONNECTIONS[CONNECTIONS.length - 1];
  const once = async (op: string, reqs: Req[]) => {
    const ms: number[] = [];
    for (const req of reqs) {
      const started = performance.now();
      const r = await send(req);
      ms.push(performance.now() - started);
      if (r.status !== 200) throw new Error(`${op} answered ${r.status}: ${r.text}`);
    }
    rows.push({
      server,
      op,
      conns: 1,
      r: null,
      note: `single calls (${ms.length}): ${ms.map((m) => m.toFixed(2)).join(', ')} ms`,
    });
    rows.push(await refusedAgainRow(server, op, reqs[0], conns, pid));
  };
  await once(
    'POST /export/realm (5 a week)',
    Array.from({ length: 5 }, () => ({ url: api('/export/realm'), method: 'POST', headers: formAs(IAGO), body: '' })),
  );
  await control('/clock', { advance_ms: 11_000 });
  const listed = (await send({ url: api('/export/realm'), method: 'GET', headers: authAs(IAGO) })).json?.exports ?? [];
  await once(
    'DELETE /export/realm/{id}',
    [1, 3].map((id) => ({ url: api(`/export/realm/${id}`), method: 'DELETE', headers: authAs(IAGO) })),
  );
  const exportUrl: string | null =
    listed.find((e: { id: number; export_url: string | null }) => e.id === 2)?.export_url ?? null;
  const domains = ['example.org', 'example.net', 'example.com'];
  await once(
    'POST /realm/domains',
    domains.map((domain) =>
      formRequest(api('/realm/domains'), { domain, allow_subdomains: 'false' }, formAs(DESDEMONA)),
    ),
  );
  await once(
    'DELETE /realm/domains/{domain}',
    domains.slice(1).map((d) => ({ url: api(`/realm/domains/${d}`), method: 'DELETE', headers: authAs(DESDEMONA) })),
  );
  for (const [op, req] of requestsOf(api, url, exportUrl ? new URL(exportUrl).pathname : null)) {
    log(`${server}: ${op} at ${conns} connection(s)`);
    if (!op.includes('export archive')) {
      rows.push({ server, op, conns, r: await measure(req, conns, pid) });
      continue;
    }
    // The archive holds every message the earlier rows sent: its size says what its row measures,
    // and Express lean sending the same bytes says how much of its time is the transfer's (the
    // kernel's copy over loopback and the load generator reading it), which no server avoids.
    const archive = Buffer.from(await (await fetch(req.url)).arrayBuffer());
    const note = `${(archive.length / 2 ** 20).toFixed(2)} MiB a download`;
    rows.push({ server, op, conns, r: await measure(req, conns, pid), note });
    rows.push(await sameBytesRow(op, archive, note, conns));
  }
  // Last: the organization stays deactivated until the control API reactivates it.
  await once('POST /realm/deactivate', [
    { url: api('/realm/deactivate'), method: 'POST', headers: formAs(DESDEMONA), body: '' },
  ]);
  await control('/realm/reactivate', {});
  return rows;
}

/** Express lean answering `bytes` (every answer the same), measured as the mock's row was. */
async function sameBytesRow(op: string, bytes: Buffer, note: string, conns: number): Promise<Row> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'teamchat-bench-archive-'));
  const file = path.join(dir, 'archive.tar.gz');
  writeFileSync(file, bytes);
  const lean = await spawnServer(
    'Express 5 lean',
    process.execPath,
    [path.join(ROOT, 'bench/servers/express-lean.mjs'), file],
    {
      cwd: ROOT,
    },
  );
  try {
    const r = await measure({ url: `${lean.url}/archive`, method: 'GET', headers: {} }, conns, lean.proc.pid);
    return { server: 'Express 5 lean, the same bytes', op, conns, r, note };
  } finally {
    await lean.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
