// The mock under test, started from the compiled JavaScript (dist/src/cli.js) in a child process,
// and the requests the bench sends it (as Hamlet, a member).
import { createHmac } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnServer, type Child } from './proc.js';
import type { LoadSpec } from './load.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CLI = path.join(ROOT, 'dist/src/cli.js');

/** HTTP Basic credentials: a fixture user's email and API key (or a remote server's UUID and key). */
const basicAuth = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
interface Account {
  email: string;
  apiKey: string;
}
export const HAMLET = { email: 'hamlet@zulip.com', apiKey: 'waG3GG7y6IC8lCLl0GJUzQa1hgDGih9f', userId: 4 };
/** An administrator, for the operations members may not call. */
export const IAGO: Account = { email: 'iago@zulip.com', apiKey: 'LBpwQ74XWqIp85UrjHt7dp3YCKF5ZBWe' };
/** The organization's owner, for the operations administrators may not call. */
export const DESDEMONA: Account = { email: 'desdemona@zulip.com', apiKey: 'yRRXWQRlG4EsBzRfg9gpbIobnoUQOpGy' };
/** The headers of a request as `account` without a body, and with a form-encoded one. */
export const authAs = (account: Account) => ({ authorization: basicAuth(account.email, account.apiKey) });
export const formAs = (account: Account) => ({
  ...authAs(account),
  'content-type': 'application/x-www-form-urlencoded',
});
const AUTH = authAs(HAMLET);
const FORM = formAs(HAMLET);
const IAGO_FORM = formAs(IAGO);

/** The outside services the bench's mock is configured with, so that the calls and the JWT login answer links and keys. */
const BENCH_JWT_KEY = 'bench-jwt-key';
/** The same services as MockServer's `services` option (for scripts that create the server in process). */
export const SERVICES = {
  nextcloudServer: 'https://cloud.example.com',
  webexSite: 'https://acme.webex.com/acme',
  constructorGroupsUrl: 'https://groups.example.com',
  jwtKey: BENCH_JWT_KEY,
  remoteServers: [{ uuid: 'bench-server-uuid', apiKey: 'bench-server-key', realmUuids: ['bench-org-uuid'] }],
};
export const SERVICE_ARGS = [
  '--nextcloud-server',
  SERVICES.nextcloudServer,
  '--webex-site',
  SERVICES.webexSite,
  '--constructor-groups-url',
  SERVICES.constructorGroupsUrl,
  '--jwt-key',
  BENCH_JWT_KEY,
  '--remote-server',
  SERVICES.remoteServers.map((r) => `${r.uuid}:${r.apiKey}:${r.realmUuids.join(',')}`).join(''),
];

/** An HS256 JSON web token naming Hamlet, signed with the bench's key (no expiry). */
const HAMLET_JWT = (() => {
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const unsigned = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ email: HAMLET.email })}`;
  return `${unsigned}.${createHmac('sha256', BENCH_JWT_KEY).update(unsigned).digest('base64url')}`;
})();

export function startMock(label: string, args: string[] = []): Promise<Child> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run npm run build first`);
  // The rows name the classic fixture's IDs (Hamlet 4, his device 1, folders 1-3).
  const fixture = args.includes('--fixture') ? [] : ['--fixture', path.join(ROOT, 'fixtures/classic.json')];
  return spawnServer(label, process.execPath, [CLI, '--port', '0', '--quiet', ...fixture, ...args], {
    cwd: ROOT,
    timeoutMs: 120_000,
  });
}

/** The API's base for a server: the mock answers under /api/v1, Prism at the description's paths. */
export type Api = (p: string) => string;
export const mockApi =
  (url: string): Api =>
  (p) =>
    `${url}/api/v1${p}`;
export const bareApi =
  (url: string): Api =>
  (p) =>
    `${url}${p}`;

/** A request as both autocannon (LoadSpec without connections/duration) and fetch can send it. */
export type Req = Pick<LoadSpec, 'url' | 'method' | 'headers' | 'body' | 'expectStatus'>;

/** A request with form-encoded parameters (as Hamlet unless other `headers` are given). */
export const formRequest = (
  url: string,
  params: Record<string, string>,
  headers: Record<string, string> = FORM,
  method: Req['method'] = 'POST',
): Req => ({ url, method, headers, body: new URLSearchParams(params).toString() });

const SEARCH_OPERAND = 'lighthouse';
const UPLOAD_BOUNDARY = 'teamchat-bench-boundary';

export const requests = {
  subscriptions: (api: Api): Req => ({ url: api('/users/me/subscriptions'), method: 'GET', headers: AUTH }),
  sendMessage: (api: Api): Req =>
    formRequest(api('/messages'), {
      type: 'stream',
      to: 'Denmark',
      topic: 'bench',
      content: `A **bench** message about the ${SEARCH_OPERAND}`,
    }),
  /** An outgoing webhook bot of Hamlet's posting to `url`, and a message that mentions it. */
  createOutgoingBot: (api: Api, url: string): Req =>
    formRequest(api('/bots'), {
      full_name: 'Bench hook',
      short_name: 'benchhook',
      bot_type: '3',
      payload_url: JSON.stringify(url),
    }),
  mentionOutgoingBot: (api: Api): Req =>
    formRequest(api('/messages'), {
      type: 'stream',
      to: 'Denmark',
      topic: 'bench hook',
      content: '@**Bench hook** a message for the bot',
    }),
  matchesNarrow: (api: Api, ids: number[]): Req => ({
    url: api(
      `/messages/matches_narrow?${new URLSearchParams({
        msg_ids: JSON.stringify(ids),
        narrow: JSON.stringify([{ operator: 'search', operand: SEARCH_OPERAND }]),
      })}`,
    ),
    method: 'GET',
    headers: AUTH,
  }),
  /** The 50 newest messages of Denmark, as a client opening the channel asks for them. */
  messages: (api: Api): Req => ({
    url: api(
      `/messages?${new URLSearchParams({
        anchor: 'newest',
        num_before: '50',
        num_after: '0',
        narrow: JSON.stringify([{ operator: 'channel', operand: 'Denmark' }]),
      })}`,
    ),
    method: 'GET',
    headers: AUTH,
  }),
  /** Marks read the 100 newest messages of Denmark: after the first call a window processed, nothing changed. */
  flagsNarrow: (api: Api): Req =>
    formRequest(api('/messages/flags/narrow'), {
      anchor: 'newest',
      num_before: '100',
      num_after: '0',
      narrow: JSON.stringify([{ operator: 'channel', operand: 'Denmark' }]),
      op: 'add',
      flag: 'read',
    }),
  register: (api: Api): Req => formRequest(api('/register'), { event_types: '["message"]' }),
  /** Every client's ping each minute: active, asking for everyone's presence in the modern form. */
  presence: (api: Api): Req => formRequest(api('/users/me/presence'), { status: 'active', last_update_id: '-1' }),
  /** A small text file as multipart, as clients upload it. */
  uploadFile: (api: Api): Req => ({
    url: api('/user_uploads'),
    method: 'POST',
    headers: { ...AUTH, 'content-type': `multipart/form-data; boundary=${UPLOAD_BOUNDARY}` },
    body: [
      `--${UPLOAD_BOUNDARY}`,
      'Content-Disposition: form-data; name="filename"; filename="notes.txt"',
      'Content-Type: text/plain',
      '',
      'Minutes of the bench meeting.',
      `--${UPLOAD_BOUNDARY}--`,
      '',
    ].join('\r\n'),
  }),
  /** A temporary URL for an uploaded file (`url`: the upload's URL, relative to the site). */
  temporaryUrl: (api: Api, url: string): Req => ({ url: api(url), method: 'GET', headers: AUTH }),
  /** The members of leadership (group 11), through its two levels of subgroups. */
  groupMembers: (api: Api): Req => ({ url: api('/user_groups/11/members'), method: 'GET', headers: AUTH }),
  /** Subscribes to Venice and leaves it in one request: the same work every time. */
  subscribeAndLeave: (api: Api): Req =>
    formRequest(
      api('/users/me/subscriptions'),
      {
        add: JSON.stringify([{ name: 'Venice' }]),
        delete: JSON.stringify(['Venice']),
      },
      FORM,
      'PATCH',
    ),
  bigBlueButton: (api: Api): Req => ({
    url: api(
      `/calls/bigbluebutton/create?${new URLSearchParams({ meeting_name: 'Denmark meeting', voice_only: 'true' })}`,
    ),
    method: 'GET',
    headers: AUTH,
  }),
  /** An administrator deleting a topic of Denmark that has no messages: the lookup and the answer. */
  deleteTopic: (api: Api): Req =>
    formRequest(api('/streams/1/delete_topic'), { topic_name: 'no such topic' }, IAGO_FORM),
  invites: (api: Api): Req => ({ url: api('/invites'), method: 'GET', headers: AUTH }),
  /** One email invitation: an invitation email in the outbox each time (and its reminder scheduled). */
  sendInvite: (api: Api): Req =>
    formRequest(api('/invites'), { invitee_emails: 'bench-invitee@example.com', stream_ids: '[1]' }),
  /** A reusable invitation link by an administrator: a new link (and an invites_changed event) each time. */
  createInviteLink: (api: Api): Req =>
    formRequest(api('/invites/multiuse'), { invite_expires_in_minutes: '1440', stream_ids: '[1]' }, IAGO_FORM),
  /** Hamlet's invitation `id` emailed again (checked against the daily limit, not counted in it). */
  resendInvite: (api: Api, id: number): Req => formRequest(api(`/invites/${id}/resend`), {}),
  /** A direct message to Iago, away with a registered device: a push notification and a missed-message email each time. */
  sendNotifyingDm: (api: Api): Req =>
    formRequest(api('/messages'), { type: 'direct', to: '[2]', content: 'A direct message that notifies' }),
  /** Iago's phones registered the legacy way, by FCM and APNs token: with them, a DM to Iago notifies three devices. */
  iagoFcmToken: (api: Api): Req =>
    formRequest(api('/users/me/android_gcm_reg_id'), { token: 'bench-fcm-token-iago' }, IAGO_FORM),
  iagoApnsToken: (api: Api): Req =>
    formRequest(api('/users/me/apns_device_token'), { token: 'c0ffee00bee5c0de', appid: 'org.zulip.Zulip' }, IAGO_FORM),
  /**
   * A mobile client's registration for E2EE notifications at each start: Hamlet's fixture device 1
   * with a new key once, then the same registration again (the real server's idempotent path).
   */
  registerPushDevice: (api: Api): Req =>
    formRequest(api('/mobile_push/register'), {
      device_id: '1',
      push_key: 'MTaUDJDMWypQ1WufZ1NRTHSSvgYtXh1qVNSjN3aBiEFt',
      push_key_id: '2408',
      token_kind: 'fcm',
      token_id: 'hGsEWGmyyfI=',
      bouncer_public_key: 'bouncer-public-key',
      encrypted_push_registration: 'sealed-registration',
    }),
  navigationViews: (api: Api): Req => ({ url: api('/navigation_views'), method: 'GET', headers: AUTH }),
  /** Pins Hamlet's (bench-made) alerts view again: the same change and event every time. */
  editNavigationView: (api: Api): Req =>
    formRequest(api('/navigation_views/narrow%2Fis%2Falerted'), { is_pinned: 'true' }, FORM, 'PATCH'),
  /** The same view again: the "already exists" refusal (400) after the first. */
  addNavigationView: (api: Api): Req => ({
    ...formRequest(api('/navigation_views'), { fragment: 'narrow/is/alerted', is_pinned: 'true', name: 'Alerts' }),
    expectStatus: 400,
  }),
  /** An administrator setting the fixture's folder order again (1, 2, 3): every folder updated, one event. */
  reorderChannelFolders: (api: Api): Req =>
    formRequest(api('/channel_folders'), { order: '[1,2,3]' }, IAGO_FORM, 'PATCH'),
  /** A new folder each time (its name taken from a counter is not possible here): the name-in-use refusal after the first. */
  createChannelFolder: (api: Api): Req => ({
    ...formRequest(api('/channel_folders/create'), { name: 'Bench', description: 'Made by the **bench**.' }, IAGO_FORM),
    expectStatus: 400,
  }),
  nextcloudTalk: (api: Api): Req => formRequest(api('/calls/nextcloud_talk/create'), { room_name: '#Denmark > bench' }),
  webex: (api: Api): Req => ({ url: api('/calls/webex/create'), method: 'POST', headers: AUTH }),
  constructorGroups: (api: Api): Req => ({
    url: api('/calls/constructorgroups/create'),
    method: 'POST',
    headers: AUTH,
  }),
  jwtFetchApiKey: (api: Api): Req => ({
    url: api('/jwt/fetch_api_key'),
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token: HAMLET_JWT }).toString(),
  }),
  /** `url`: an upload's URL, relative to the site. */
  thumbnailStatus: (api: Api, url: string): Req => ({
    url: api(url.replace('/user_uploads/', '/thumbnail/status/')),
    method: 'GET',
    headers: AUTH,
  }),
  /** An administrator setting Hamlet's status text (the same text: still a change and an event to everyone). */
  statusForUser: (api: Api): Req => formRequest(api('/users/4/status'), { status_text: 'benching' }, IAGO_FORM),
  /** A remote server registering the same token again (the bouncer replaces the registration). */
  remotePushRegister: (api: Api): Req =>
    formRequest(
      api('/remotes/push/e2ee/register'),
      {
        realm_uuid: 'bench-org-uuid',
        token_id: 'hGsEWGmyyfI=',
        encrypted_push_registration: 'sealed',
        bouncer_public_key: 'bouncer-public-key',
      },
      formAs({ email: 'bench-server-uuid', apiKey: 'bench-server-key' }),
    ),
  botApiKey: (api: Api): Req => ({ url: api('/bots/12/api_key'), method: 'GET', headers: AUTH }),
  userChannels: (api: Api): Req => ({ url: api('/users/5/channels'), method: 'GET', headers: AUTH }),
  events: (api: Api, queueId: string): Req => ({
    url: api(`/events?${new URLSearchParams({ queue_id: queueId, last_event_id: '-1', dont_block: 'true' })}`),
    method: 'GET',
    headers: AUTH,
  }),
};

export async function send(req: Req): Promise<{ status: number; text: string; json: any }> {
  const res = await fetch(req.url, { method: req.method, headers: req.headers, body: req.body });
  const text = await res.text();
  let json: any = null;
  try {
    json = JSON.parse(text);
  } catch {
    /* not JSON */
  }
  return { status: res.status, text, json };
}

/**
 * Waits (up to a minute) until the mock has made every outgoing webhook call it still owes: a row
 * that mentions a bot leaves a backlog of calls, and closing the bot's server before they settle
 * would have them retried and fail (owner DMs, journal entries) during the rows that follow.
 */
export async function settleOutgoing(mockUrl: string): Promise<void> {
  const res = await fetch(`${mockUrl}/__mock/outgoing/settle`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ timeout_ms: 60_000 }),
  });
  const answer = (await res.json()) as { settled?: boolean; pending?: number };
  if (res.status !== 200 || !answer.settled)
    throw new Error(`outgoing calls not settled (${res.status}, ${JSON.stringify(answer)})`);
}

/** Milliseconds from spawn to the first 200 on GET /users/me/subscriptions (authenticated, validated). */
export async function timeToFirstResponse(
  label: string,
  args: string[] = [],
): Promise<{ child: Child; ms: number; body: string }> {
  const started = performance.now();
  const child = await startMock(label, args);
  const r = await send(requests.subscriptions(mockApi(child.url)));
  if (r.status !== 200)
    throw new Error(`${label}: first GET /users/me/subscriptions answered ${r.status}: ${r.text.slice(0, 300)}`);
  return { child, ms: performance.now() - started, body: r.text };
}

/**
 * POST /messages answers 501 while the messaging work is unfinished: then wait and ask again
 * (up to `waitS` seconds) rather than measure a 501. Returns whether it works.
 */
export async function messagingReady(api: Api, waitS: number, log: (s: string) => void): Promise<boolean> {
  const deadline = performance.now() + waitS * 1000;
  for (;;) {
    const r = await send(requests.sendMessage(api));
    if (r.status === 200) return true;
    if (r.status !== 501 || performance.now() > deadline) {
      log(`POST /messages answered ${r.status} (${r.text.slice(0, 200)}): not measured`);
      return false;
    }
    log('POST /messages answers 501 (not implemented yet); asking again in 30 s');
    await new Promise((resolve) => setTimeout(resolve, 30_000));
  }
}
