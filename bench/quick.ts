// A quick look while optimising (about 40 s): Express lean and the mock on the operations
// at 32 connections, with the server's CPU time per request. Not the report: npm run bench is.
//   node --import tsx bench/quick.ts [SECONDS] [-- mock args]
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { measure } from './lib/config.js';
import { bareApi, mockApi, requests, send, startMock, ROOT, SERVICE_ARGS, type Req } from './lib/mock.js';
import { spawnServer } from './lib/proc.js';
import { startBotListener } from './lib/bot-listener.js';

const [seconds = '3', ...rest] = process.argv.slice(2);
const args = rest[0] === '--' ? rest.slice(1) : rest;
const duration = Number(seconds);
const line = (name: string, r: Awaited<ReturnType<typeof measure>>) =>
  console.log(
    `${name.padEnd(34)} ${r.rps.toFixed(0).padStart(7)} req/s  p50 ${r.p50.toFixed(2).padStart(6)}  p99 ${r.p99.toFixed(2).padStart(6)} ms  ${r.cpuUs?.toFixed(0).padStart(5)} µs/req ${Object.keys(r.bad).length ? JSON.stringify(r.bad) : ''}`,
  );

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
line('subscriptions', await measure(requests.subscriptions(api), 32, pid, duration));
line('send', await measure(requests.sendMessage(api), 32, pid, duration));
const bot = await startBotListener();
await send(requests.createOutgoingBot(api, bot.url));
line('send mentioning a webhook bot', await measure(requests.mentionOutgoingBot(api), 32, pid, duration));
await bot.close();
line('send DM notifying an away user', await measure(requests.sendNotifyingDm(api), 32, pid, duration));
for (const token of [requests.iagoFcmToken(api), requests.iagoApnsToken(api)])
  if ((await send(token)).status !== 200) throw new Error(`registering Iago's token failed: ${token.url}`);
line('send DM notifying (E2EE+FCM+APNs)', await measure(requests.sendNotifyingDm(api), 32, pid, duration));
const last = (await send(requests.sendMessage(api))).json.id as number;
line(
  'matches_narrow',
  await measure(
    requests.matchesNarrow(
      api,
      Array.from({ length: 100 }, (_, i) => last - 99 + i),
    ),
    32,
    pid,
    duration,
  ),
);
line('presence', await measure(requests.presence(api), 32, pid, duration));
line('flags/narrow (100 messages)', await measure(requests.flagsNarrow(api), 32, pid, duration));
line('upload (small file)', await measure(requests.uploadFile(api), 32, pid, duration));
const uploaded = (await send(requests.uploadFile(api))).json.url as string;
line('temporary upload URL', await measure(requests.temporaryUrl(api, uploaded), 32, pid, duration));
line('group members (nested)', await measure(requests.groupMembers(api), 32, pid, duration));
line('subscriptions PATCH (add+delete)', await measure(requests.subscribeAndLeave(api), 32, pid, duration));
line('bigbluebutton create', await measure(requests.bigBlueButton(api), 32, pid, duration));
line('delete_topic (empty topic)', await measure(requests.deleteTopic(api), 32, pid, duration));
await send(requests.registerPushDevice(api));
line('mobile_push/register (same again)', await measure(requests.registerPushDevice(api), 32, pid, duration));
await send(requests.addNavigationView(api));
line('navigation_views GET', await measure(requests.navigationViews(api), 32, pid, duration));
line('navigation_views PATCH', await measure(requests.editNavigationView(api), 32, pid, duration));
line('channel_folders reorder', await measure(requests.reorderChannelFolders(api), 32, pid, duration));
line('nextcloud_talk create', await measure(requests.nextcloudTalk(api), 32, pid, duration));
line('webex create', await measure(requests.webex(api), 32, pid, duration));
line('constructorgroups create', await measure(requests.constructorGroups(api), 32, pid, duration));
line('jwt/fetch_api_key', await measure(requests.jwtFetchApiKey(api), 32, pid, duration));
line('thumbnail status', await measure(requests.thumbnailStatus(api, uploaded), 32, pid, duration));
line('users/{id}/status (admin)', await measure(requests.statusForUser(api), 32, pid, duration));
line('bots/{id}/api_key', await measure(requests.botApiKey(api), 32, pid, duration));
line('users/{id}/channels', await measure(requests.userChannels(api), 32, pid, duration));
line('remotes/push/e2ee/register', await measure(requests.remotePushRegister(api), 32, pid, duration));
// Last: each of register's requests makes an event queue of Hamlet's (over a thousand), and every
// later event would be offered to each of them, whatever the row measures.
line('register', await measure(requests.register(api), 32, pid, duration));
const events: Req = requests.events(api, (await send(requests.register(api))).json.queue_id);
line('events', await measure(events, 32, pid, duration));
await mock.stop();

// The invitations on a mock with production rules: the development server refuses all but 100 a day.
const prod = await startMock('mock --production', [...args, '--production', ...SERVICE_ARGS]);
const papi = mockApi(prod.url);
const ppid = prod.proc.pid;
line('invites GET (none pending)', await measure(requests.invites(papi), 32, ppid, duration));
line('invites POST (one address)', await measure(requests.sendInvite(papi), 32, ppid, duration));
line('invites/multiuse POST', await measure(requests.createInviteLink(papi), 32, ppid, duration));
const invites = (await send(requests.invites(papi))).json.invites as Array<{ id: number; is_multiuse: boolean }>;
const emailInvite = Math.max(...invites.filter((i) => !i.is_multiuse).map((i) => i.id));
line('invites/{id}/resend', await measure(requests.resendInvite(papi, emailInvite), 32, ppid, duration));
await prod.stop();
