// A quick look while optimising (about 40 s): Express lean and the mock on the operations
// at 32 connections, with the server's CPU time per request. Not the report: npm run bench is.
//   node --import tsx bench/quick.ts [SECONDS] [-- mock args]
// QUICK_ROWS=REGEX measures only the mock's rows whose name matches (case-insensitive); the
// Express lean rows always run, as the machine's reference for that run.
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { measure } from './lib/config.js';
import {
  bareApi,
  mockApi,
  requests,
  send,
  settleOutgoing,
  startMock,
  ROOT,
  SERVICE_ARGS,
  type Req,
} from './lib/mock.js';
import { spawnServer } from './lib/proc.js';
import { startBotServer } from './lib/bot-listener.js';

const [seconds = '3', ...rest] = process.argv.slice(2);
const args = rest[0] === '--' ? rest.slice(1) : rest;
const duration = Number(seconds);
const line = (name: string, r: Awaited<ReturnType<typeof measure>>) =>
  console.log(
    `${name.padEnd(34)} ${r.rps.toFixed(0).padStart(7)} req/s  p50 ${r.p50.toFixed(2).padStart(6)}  p99 ${r.p99.toFixed(2).padStart(6)} ms  ${r.cpuUs?.toFixed(0).padStart(5)} µs/req ${Object.keys(r.bad).length ? JSON.stringify(r.bad) : ''}`,
  );

const only = process.env.QUICK_ROWS ? new RegExp(process.env.QUICK_ROWS, 'i') : null;
/** One of the mock's rows (measured in the process `server`), unless QUICK_ROWS leaves it out. */
async function row(name: string, req: Req, server = pid): Promise<void> {
  if (only && !only.test(name)) return;
  line(name, await measure(req, 32, server, duration));
}

const mock = await startMock('mock', [...args, ...SERVICE_ARGS]);
const api = mockApi(mock.url);
const body = (await send(requests.subscriptions(api))).text;
const dir = mkdtempSync(path.join(os.tmpdir(), 'teamchat-quick-'));
writeFileSync(path.join(dir, 'body.json'), body);
const lean = await spawnServer(
  'lean',
  process.execPath,
  [path.join(ROOT, 'bench/servers/express-lean.mjs'), path.join(dir, 'body.json')],
  { cwd: ROOT },
);
line('Express lean GET', await measure(requests.subscriptions(bareApi(lean.url)), 32, lean.proc.pid, duration));
line('Express lean POST', await measure(requests.sendMessage(bareApi(lean.url)), 32, lean.proc.pid, duration));
await lean.stop();
const pid = mock.proc.pid;
await row('subscriptions', requests.subscriptions(api));
await row('send', requests.sendMessage(api));
const bot = await startBotServer();
await send(requests.createOutgoingBot(api, bot.url));
await row('send mentioning a webhook bot', requests.mentionOutgoingBot(api));
await settleOutgoing(mock.url);
await bot.close();
await row('send DM notifying an away user', requests.sendNotifyingDm(api));
for (const token of [requests.iagoFcmToken(api), requests.iagoApnsToken(api)])
  if ((await send(token)).status !== 200) throw new Error(`registering Iago's token failed: ${token.url}`);
await row('send DM notifying (E2EE+FCM+APNs)', requests.sendNotifyingDm(api));
const last = (await send(requests.sendMessage(api))).json.id as number;
await row(
  'matches_narrow',
  requests.matchesNarrow(
    api,
    Array.from({ length: 100 }, (_, i) => last - 99 + i),
  ),
);
await row('presence', requests.presence(api));
await row('flags/narrow (100 messages)', requests.flagsNarrow(api));
await row('upload (small file)', requests.uploadFile(api));
const uploaded = (await send(requests.uploadFile(api))).json.url as string;
await row('temporary upload URL', requests.temporaryUrl(api, uploaded));
await row('group members (nested)', requests.groupMembers(api));
await row('subscriptions PATCH (add+delete)', requests.subscribeAndLeave(api));
await row('bigbluebutton create', requests.bigBlueButton(api));
await row('delete_topic (empty topic)', requests.deleteTopic(api));
await send(requests.registerPushDevice(api));
await row('mobile_push/register (same again)', requests.registerPushDevice(api));
await send(requests.addNavigationView(api));
await row('navigation_views GET', requests.navigationViews(api));
await row('navigation_views PATCH', requests.editNavigationView(api));
await row('channel_folders reorder', requests.reorderChannelFolders(api));
await row('nextcloud_talk create', requests.nextcloudTalk(api));
await row('webex create', requests.webex(api));
await row('constructorgroups create', requests.constructorGroups(api));
await row('jwt/fetch_api_key', requests.jwtFetchApiKey(api));
await row('thumbnail status', requests.thumbnailStatus(api, uploaded));
await row('users/{id}/status (admin)', requests.statusForUser(api));
await row('bots/{id}/api_key', requests.botApiKey(api));
await row('users/{id}/channels', requests.userChannels(api));
await row('remotes/push/e2ee/register', requests.remotePushRegister(api));
// Last: each of register's requests makes an event queue of Hamlet's (over a thousand), and every
// later event would be offered to each of them, whatever the row measures.
await row('register', requests.register(api));
const events: Req = requests.events(api, (await send(requests.register(api))).json.queue_id);
await row('events', events);
await mock.stop();

// The invitations on a mock with production rules: the development server refuses all but 100 a day.
if (!only || only.test('invites')) {
  const prod = await startMock('mock --production', [...args, '--production', ...SERVICE_ARGS]);
  const papi = mockApi(prod.url);
  const ppid = prod.proc.pid;
  await row('invites GET (none pending)', requests.invites(papi), ppid);
  await row('invites POST (one address)', requests.sendInvite(papi), ppid);
  await row('invites/multiuse POST', requests.createInviteLink(papi), ppid);
  const invites = (await send(requests.invites(papi))).json.invites as Array<{ id: number; is_multiuse: boolean }>;
  const emailInvite = Math.max(...invites.filter((i) => !i.is_multiuse).map((i) => i.id));
  await row('invites/{id}/resend', requests.resendInvite(papi, emailInvite), ppid);
  await prod.stop();
}
