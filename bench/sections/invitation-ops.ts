// The invitation and navigation-view operations of issue 27: listing and sending invitations,
// creating a reusable link and resending an email invitation, at 32 connections; revoking an
// invitation or a link and deleting a navigation view succeed once each (then the thing is gone),
// so their rows give the time of single calls, and a second row times the last of them again at
// 32 connections, refused, as organization-ops.ts does for its one-time calls.
// They run on a mock of their own with --production: the development server's daily limit (100
// invitations) would refuse all but the first hundred sendings, and its pending invitations would
// weigh on the other rows.
import { CONNECTIONS, log, measure, refusedAgainRow } from '../lib/config.js';
import {
  HAMLET,
  IAGO,
  SERVICE_ARGS,
  authAs,
  formRequest,
  mockApi,
  requests,
  send,
  startMock,
  type Api,
  type Req,
} from '../lib/mock.js';
import type { Row } from '../lib/report.js';

const HAMLET_AUTH = authAs(HAMLET).authorization;
const IAGO_AUTH = authAs(IAGO).authorization;

/** The newest pending email invitation (or reusable link) the caller may see. */
async function newestInviteId(api: Api, authorization: string, multiuse: boolean): Promise<number> {
  const r = await send({ url: api('/invites'), method: 'GET', headers: { authorization } });
  const ids = (r.json?.invites ?? [])
    .filter((i: { is_multiuse: boolean }) => i.is_multiuse === multiuse)
    .map((i: { id: number }) => i.id);
  if (!ids.length) throw new Error(`no pending ${multiuse ? 'link' : 'invitation'}: ${r.text.slice(0, 200)}`);
  return Math.max(...ids);
}

export async function invitationRows(label: string): Promise<Row[]> {
  const server = `${label}, --production`;
  const child = await startMock(server, ['--production', ...SERVICE_ARGS]);
  try {
    return await rowsOf(server, mockApi(child.url), child.proc.pid);
  } finally {
    await child.stop();
  }
}

async function rowsOf(server: string, api: Api, pid: number | undefined): Promise<Row[]> {
  const rows: Row[] = [];
  const conns = CONNECTIONS[CONNECTIONS.length - 1];
  const loaded = async (op: string, req: Req) => {
    const probe = await send(req);
    // A row timing a refusal (expectStatus) may still be allowed its first call.
    if (probe.status !== 200 && probe.status !== req.expectStatus)
      throw new Error(`${op} answered ${probe.status}: ${probe.text.slice(0, 200)}`);
    log(`${server}: ${op} at ${conns} connection(s)`);
    rows.push({ server, op, conns, r: await measure(req, conns, pid) });
  };
  /** Prepares each call with `before` (not timed), then times the call alone. */
  const once = async (op: string, count: number, before: () => Promise<Req>) => {
    const ms: number[] = [];
    let last: Req | null = null;
    for (let i = 0; i < count; i++) {
      const req = (last = await before());
      const started = performance.now();
      const r = await send(req);
      ms.push(performance.now() - started);
      if (r.status !== 200) throw new Error(`${op} answered ${r.status}: ${r.text.slice(0, 200)}`);
    }
    rows.push({
      server,
      op,
      conns: 1,
      r: null,
      note: `single calls (${count}): ${ms.map((m) => m.toFixed(2)).join(', ')} ms`,
    });
    if (last) rows.push(await refusedAgainRow(server, op, last, conns, pid));
  };

  await loaded('GET /invites (none pending)', requests.invites(api));
  await loaded('POST /invites (one address, email and its reminder to the outbox)', requests.sendInvite(api));
  await loaded('POST /invites/multiuse', requests.createInviteLink(api));
  const invite = (email: string) => send(formRequest(api('/invites'), { invitee_emails: email, stream_ids: '[1]' }));

  let n = 0;
  await once('DELETE /invites/{invite_id}', 3, async () => {
    await invite(`bench-revoke-${n++}@example.com`);
    const id = await newestInviteId(api, HAMLET_AUTH, false);
    return { url: api(`/invites/${id}`), method: 'DELETE', headers: { authorization: HAMLET_AUTH } };
  });
  await once('DELETE /invites/multiuse/{invite_id}', 3, async () => {
    await send(requests.createInviteLink(api));
    const id = await newestInviteId(api, IAGO_AUTH, true);
    return { url: api(`/invites/multiuse/${id}`), method: 'DELETE', headers: { authorization: IAGO_AUTH } };
  });
  await once('DELETE /navigation_views/{fragment}', 3, async () => {
    const fragment = `narrow/channel/1-Denmark/topic/bench-${n++}`;
    const made = await send(formRequest(api('/navigation_views'), { fragment, is_pinned: 'true', name: `Bench ${n}` }));
    if (made.status !== 200) throw new Error(`POST /navigation_views answered ${made.status}: ${made.text}`);
    return {
      url: api(`/navigation_views/${encodeURIComponent(fragment)}`),
      method: 'DELETE',
      headers: { authorization: HAMLET_AUTH },
    };
  });
  await invite('bench-resend@example.com');
  await loaded(
    'POST /invites/{invite_id}/resend',
    requests.resendInvite(api, await newestInviteId(api, HAMLET_AUTH, false)),
  );
  return rows;
}
