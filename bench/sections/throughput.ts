// Requests per second and latency at 1 and 32 connections: the machine's and the framework's
// ceilings (fixed bytes), the mock on its operations, and Prism mocking the same description.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CONNECTIONS, WAIT_501_S, log, measure } from '../lib/config.js';
import {
  bareApi,
  messagingReady,
  mockApi,
  requests,
  send,
  settleOutgoing,
  startMock,
  ROOT,
  SERVICE_ARGS,
  type Req,
} from '../lib/mock.js';
import { freePort, rssMb, spawnServer } from '../lib/proc.js';
import type { Row } from '../lib/report.js';
import type { Sample } from '../journal-memory.js';
import { startBotServer } from '../lib/bot-listener.js';
import { organizationRows } from './organization-ops.js';
import { invitationRows } from './invitation-ops.js';

const OPS = {
  subscriptions: 'GET /users/me/subscriptions',
  messages: 'GET /messages (50 newest of a channel)',
  send: 'POST /messages',
  sendToBot: 'POST /messages (mentions an outgoing webhook bot)',
  narrow: 'GET /messages/matches_narrow',
  flagsNarrow: 'POST /messages/flags/narrow',
  register: 'POST /register',
  events: 'GET /events (dont_block)',
  presence: 'POST /users/me/presence',
  upload: 'POST /user_uploads (small file)',
  temporaryUrl: 'GET /user_uploads/{realm_id_str}/{filename} (temporary URL)',
  groupMembers: 'GET /user_groups/{id}/members',
  subscribeAndLeave: 'PATCH /users/me/subscriptions',
  bigBlueButton: 'GET /calls/bigbluebutton/create',
  deleteTopic: 'POST /streams/{id}/delete_topic',
  pushRegister: 'POST /mobile_push/register (same again)',
  navigationViews: 'GET /navigation_views',
  addNavigationView: 'POST /navigation_views (already exists)',
  editNavigationView: 'PATCH /navigation_views/{fragment}',
  reorderFolders: 'PATCH /channel_folders (reorder)',
  createFolder: 'POST /channel_folders/create (name in use)',
  nextcloudTalk: 'POST /calls/nextcloud_talk/create',
  webex: 'POST /calls/webex/create',
  constructorGroups: 'POST /calls/constructorgroups/create',
  jwtFetchApiKey: 'POST /jwt/fetch_api_key',
  thumbnailStatus: 'GET /thumbnail/status/{realm_id_str}/{filename}',
  statusForUser: 'POST /users/{user_id}/status',
  botApiKey: 'GET /bots/{bot_id}/api_key',
  userChannels: 'GET /users/{user_id}/channels',
  remotePushRegister: 'POST /remotes/push/e2ee/register (same token again)',
  notifyingDm: 'POST /messages (direct, notifies an away user)',
};
export { OPS };

async function rowsFor(server: string, op: string, req: Req, pid: number | undefined): Promise<Row[]> {
  const rows: Row[] = [];
  for (const conns of CONNECTIONS) {
    log(`${server}: ${op} at ${conns} connection(s)`);
    rows.push({ server, op, conns, r: await measure(req, conns, pid) });
  }
  return rows;
}

/** node:http and Express lean answering the mock's subscriptions bytes, to GET and to POST. */
export async function baselines(bodyFile: string): Promise<Row[]> {
  const rows: Row[] = [];
  const servers = [
    ['node:http', 'node-http.mjs'],
    ['Express 5 lean', 'express-lean.mjs'],
    ['Express 5, prototypes in place', 'express-lean.mjs', 'prototypes'],
  ] as const;
  for (const [server, script, ...extra] of servers) {
    const child = await spawnServer(
      server,
      process.execPath,
      [path.join(ROOT, 'bench/servers', script), bodyFile, ...extra],
      { cwd: ROOT },
    );
    try {
      const api = bareApi(child.url);
      rows.push(...(await rowsFor(server, OPS.subscriptions, requests.subscriptions(api), child.proc.pid)));
      rows.push(...(await rowsFor(server, `${OPS.send} (fixed answer)`, requests.sendMessage(api), child.proc.pid)));
    } finally {
      await child.stop();
    }
  }
  return rows;
}

export interface MockRun {
  rows: Row[];
  rssAfterMb: number | null;
  /** Real request/response pairs, for the journal measurement. */
  samples: Sample[];
}

/** The mock on every measured operation, with `args` (e.g. --no-validate-responses). */
export async function mockOperations(server: string, args: string[] = []): Promise<MockRun> {
  const child = await startMock(server, [...args, ...SERVICE_ARGS]);
  const api = mockApi(child.url);
  const rows: Row[] = [];
  const samples: Sample[] = [];
  const sample = async (op: string, operation: string, req: Req, params: Record<string, unknown>) => {
    const r = await send(req);
    if (r.status === 200)
      samples.push({
        method: req.method ?? 'GET',
        path: new URL(req.url).pathname,
        operation,
        params,
        status: r.status,
        body: r.text,
      });
    return r;
  };
  try {
    await sample(OPS.subscriptions, 'get-subscriptions', requests.subscriptions(api), {});
    rows.push(...(await rowsFor(server, OPS.subscriptions, requests.subscriptions(api), child.proc.pid)));

    let lastId = 0;
    if (await messagingReady(api, WAIT_501_S, log)) {
      rows.push(...(await rowsFor(server, OPS.send, requests.sendMessage(api), child.proc.pid)));
      lastId = (
        await sample(OPS.send, 'send-message', requests.sendMessage(api), {
          type: 'stream',
          to: 'Denmark',
          topic: 'bench',
          content: '…',
        })
      ).json.id;
    } else {
      rows.push({ server, op: OPS.send, conns: 32, r: null, note: 'not measured: not implemented (501) or failing' });
    }

    if (lastId) {
      // The sender's latency when each message also calls a bot on loopback (after the answer, as the real queue).
      const bot = await startBotServer();
      try {
        const created = await send(requests.createOutgoingBot(api, bot.url));
        if (created.status !== 200)
          throw new Error(`POST /bots answered ${created.status}: ${created.text.slice(0, 200)}`);
        const measured = await rowsFor(server, OPS.sendToBot, requests.mentionOutgoingBot(api), child.proc.pid);
        const note = `${await bot.calls()} bot calls so far`;
        rows.push(...measured.map((row) => ({ ...row, note })));
        await settleOutgoing(child.url);
      } finally {
        await bot.close();
      }
    }

    // The 100 newest messages Hamlet received (his own bench messages, when sending works).
    const ids = Array.from({ length: 100 }, (_, i) => lastId - 99 + i).filter((id) => id > 0);
    const narrow = requests.matchesNarrow(api, ids);
    const probe = await sample(OPS.narrow, 'check-messages-match-narrow', narrow, {
      msg_ids: ids,
      narrow: [{ operator: 'search', operand: 'lighthouse' }],
    });
    if (probe.status !== 200) log(`matches_narrow answered ${probe.status}: ${probe.text.slice(0, 200)}`);
    rows.push(
      ...(await rowsFor(server, `${OPS.narrow} (${ids.length} ids)`, narrow, child.proc.pid)).map((row) => ({
        ...row,
        note: `${Object.keys(probe.json?.messages ?? {}).length} of ${ids.length} match`,
      })),
    );

    const flags = await sample(OPS.flagsNarrow, 'update-message-flags-for-narrow', requests.flagsNarrow(api), {
      anchor: 'newest',
      num_before: 100,
      num_after: 0,
      narrow: [{ operator: 'channel', operand: 'Denmark' }],
      op: 'add',
      flag: 'read',
    });
    rows.push(
      ...(await rowsFor(server, `${OPS.flagsNarrow} (100 messages)`, requests.flagsNarrow(api), child.proc.pid)).map(
        (row) => ({ ...row, note: `${flags.json?.processed_count ?? '?'} processed` }),
      ),
    );

    await sample(OPS.presence, 'update-presence', requests.presence(api), { status: 'active', last_update_id: -1 });
    rows.push(
      ...(await rowsFor(server, `${OPS.presence} (last_update_id -1)`, requests.presence(api), child.proc.pid)),
    );
    await sample(OPS.upload, 'upload-file', requests.uploadFile(api), {});
    rows.push(...(await rowsFor(server, OPS.upload, requests.uploadFile(api), child.proc.pid)));
    const uploaded = (await send(requests.uploadFile(api))).json?.url as string | undefined;
    if (uploaded) {
      const [realmId, ...rest] = uploaded.slice('/user_uploads/'.length).split('/');
      await sample(OPS.temporaryUrl, 'get-file-temporary-url', requests.temporaryUrl(api, uploaded), {
        realm_id_str: Number(realmId),
        filename: rest.join('/'),
      });
      rows.push(...(await rowsFor(server, OPS.temporaryUrl, requests.temporaryUrl(api, uploaded), child.proc.pid)));
    } else {
      rows.push({ server, op: OPS.temporaryUrl, conns: 32, r: null, note: 'not measured: the upload failed' });
    }
    await sample(OPS.groupMembers, 'get-user-group-members', requests.groupMembers(api), { user_group_id: 11 });
    rows.push(
      ...(await rowsFor(server, `${OPS.groupMembers} (nested subgroups)`, requests.groupMembers(api), child.proc.pid)),
    );
    await sample(OPS.subscribeAndLeave, 'update-subscriptions', requests.subscribeAndLeave(api), {
      add: [{ name: 'Venice' }],
      delete: ['Venice'],
    });
    rows.push(
      ...(await rowsFor(
        server,
        `${OPS.subscribeAndLeave} (add and delete one channel)`,
        requests.subscribeAndLeave(api),
        child.proc.pid,
      )),
    );
    await sample(OPS.bigBlueButton, 'create-big-blue-button-video-call', requests.bigBlueButton(api), {
      meeting_name: 'Denmark meeting',
      voice_only: true,
    });
    rows.push(...(await rowsFor(server, OPS.bigBlueButton, requests.bigBlueButton(api), child.proc.pid)));
    await sample(OPS.deleteTopic, 'delete-topic', requests.deleteTopic(api), {
      stream_id: 1,
      topic_name: 'no such topic',
    });
    rows.push(
      ...(await rowsFor(server, `${OPS.deleteTopic} (empty topic)`, requests.deleteTopic(api), child.proc.pid)),
    );
    await sample(OPS.pushRegister, 'register-push-device', requests.registerPushDevice(api), {});
    rows.push(...(await rowsFor(server, OPS.pushRegister, requests.registerPushDevice(api), child.proc.pid)));
    // Issue 27's operations, in the main run only (the run without response checks compares the rows above).
    if (!args.length) rows.push(...(await organizationRows(server, child.url, api, child.proc.pid)));
    if (!args.length) rows.push(...(await invitationRows(server)));
    rows.push(...(await issue27Rows(server, api, uploaded, child.proc.pid)));
    await sample(OPS.notifyingDm, 'send-message', requests.sendNotifyingDm(api), {
      type: 'direct',
      to: [2],
      content: '…',
    });
    rows.push(
      ...(await rowsFor(
        server,
        `${OPS.notifyingDm} (E2EE push to 1 device, email queued)`,
        requests.sendNotifyingDm(api),
        child.proc.pid,
      )),
    );
    for (const token of [requests.iagoFcmToken(api), requests.iagoApnsToken(api)])
      if ((await send(token)).status !== 200) throw new Error(`registering Iago's token failed: ${token.url}`);
    rows.push(
      ...(await rowsFor(
        server,
        `${OPS.notifyingDm} (pushes to 3 devices: E2EE sealed, FCM, APNs; email queued)`,
        requests.sendNotifyingDm(api),
        child.proc.pid,
      )),
    );
    await sample(OPS.register, 'register-queue', requests.register(api), { event_types: ['message'] });
    rows.push(
      ...(await rowsFor(server, `${OPS.register} (event_types message)`, requests.register(api), child.proc.pid)),
    );
    // A queue registered after the register rows: their tens of thousands of queues put Hamlet
    // past the mock's 1,000 queues per user, and the least recently polled ones are collected.
    // Last of the rows: every event of a later row would be offered to each of those queues.
    const reg = await send(requests.register(api));
    const events = requests.events(api, reg.json?.queue_id ?? 'none');
    await sample(OPS.events, 'get-events', events, {
      queue_id: reg.json?.queue_id,
      last_event_id: -1,
      dont_block: true,
    });
    rows.push(...(await rowsFor(server, OPS.events, events, child.proc.pid)));
    return { rows, rssAfterMb: rssMb(child.proc.pid), samples };
  } finally {
    await child.stop();
  }
}

/** The operations issue 27 added (navigation views, folders, calls, JWT login, thumbnails, users). */
async function issue27Rows(
  server: string,
  api: ReturnType<typeof mockApi>,
  uploaded: string | undefined,
  pid: number | undefined,
): Promise<Row[]> {
  const rows: Row[] = [];
  const measured: Array<[string, Req]> = [];
  await send(requests.addNavigationView(api));
  measured.push(
    [OPS.navigationViews, requests.navigationViews(api)],
    [OPS.addNavigationView, requests.addNavigationView(api)],
    [OPS.editNavigationView, requests.editNavigationView(api)],
  );
  // The reorder names every folder, so it is measured before the create row's probe adds one.
  measured.push(
    [OPS.reorderFolders, requests.reorderChannelFolders(api)],
    [OPS.createFolder, requests.createChannelFolder(api)],
  );
  measured.push(
    [OPS.nextcloudTalk, requests.nextcloudTalk(api)],
    [OPS.webex, requests.webex(api)],
    [OPS.constructorGroups, requests.constructorGroups(api)],
  );
  measured.push([OPS.jwtFetchApiKey, requests.jwtFetchApiKey(api)]);
  if (uploaded) measured.push([OPS.thumbnailStatus, requests.thumbnailStatus(api, uploaded)]);
  measured.push(
    [OPS.statusForUser, requests.statusForUser(api)],
    [OPS.botApiKey, requests.botApiKey(api)],
    [OPS.userChannels, requests.userChannels(api)],
    [OPS.remotePushRegister, requests.remotePushRegister(api)],
  );
  for (const [op, req] of measured) {
    const probe = await send(req);
    if (probe.status !== 200 && !op.includes('(')) log(`${op} answered ${probe.status}: ${probe.text.slice(0, 200)}`);
    rows.push(...(await rowsFor(server, op, req, pid)));
  }
  return rows;
}

/**
 * The reads again with every answer built anew (--no-answer-cache): what a read costs the first
 * time after a change, which the main rows (the same request over and over) mostly do not show.
 * Express lean then answers the very bytes of the subscriptions and GET /messages answers (as the
 * issue compares them: the same bytes), measured after the mock has stopped.
 */
export async function readsBuiltAnew(dir: string): Promise<Row[]> {
  const server = 'teamchat-mock, --no-answer-cache';
  const child = await startMock(server, ['--no-answer-cache']);
  const api = mockApi(child.url);
  const rows: Row[] = [];
  const bodies: Array<[string, (api: ReturnType<typeof mockApi>) => Req, string]> = [];
  try {
    // As in the main run: the 100 newest messages Hamlet received, all matching the search.
    let lastId = 0;
    for (let i = 0; i < 100; i++) lastId = (await send(requests.sendMessage(api))).json?.id ?? lastId;
    for (const [op, req] of [
      [OPS.subscriptions, requests.subscriptions],
      [OPS.messages, requests.messages],
    ] as const) {
      const probe = await send(req(api));
      if (probe.status !== 200) throw new Error(`${op} answered ${probe.status}: ${probe.text.slice(0, 200)}`);
      bodies.push([op, req, probe.text]);
      rows.push(...(await rowsFor(server, op, req(api), child.proc.pid)));
    }
    const ids = Array.from({ length: 100 }, (_, i) => lastId - 99 + i).filter((id) => id > 0);
    rows.push(
      ...(await rowsFor(server, `${OPS.narrow} (${ids.length} ids)`, requests.matchesNarrow(api, ids), child.proc.pid)),
    );
  } finally {
    await child.stop();
  }
  for (const [op, req, body] of bodies) {
    const file = path.join(dir, `built-anew-${bodies.findIndex((b) => b[0] === op)}.json`);
    writeFileSync(file, body);
    const lean = await spawnServer(
      'Express 5 lean',
      process.execPath,
      [path.join(ROOT, 'bench/servers/express-lean.mjs'), file],
      { cwd: ROOT },
    );
    try {
      const note = `the same ${(body.length / 1024).toFixed(1)} KiB`;
      rows.push(
        ...(await rowsFor(SAME_BYTES, op, req(bareApi(lean.url)), lean.proc.pid)).map((row) => ({ ...row, note })),
      );
    } finally {
      await lean.stop();
    }
  }
  return rows;
}

/** The server name of Express lean's rows answering the bytes of a read built anew. */
export const SAME_BYTES = 'Express 5 lean, the bytes of the read built anew';

export const prismVersion = () =>
  (
    JSON.parse(readFileSync(path.join(ROOT, 'node_modules/@stoplight/prism-cli/package.json'), 'utf8')) as {
      version: string;
    }
  ).version;

/** Prism mocking the merged description (paths without the /api/v1 prefix, as described). */
export async function prism(descriptionFile: string): Promise<{ rows: Row[]; error: string | null }> {
  let child;
  try {
    const cli = path.join(ROOT, 'node_modules/@stoplight/prism-cli/dist/index.js');
    const port = await freePort();
    child = await spawnServer(
      'Prism',
      process.execPath,
      [cli, 'mock', '-h', '127.0.0.1', '-p', String(port), descriptionFile],
      { cwd: ROOT, timeoutMs: 120_000 },
    );
  } catch (err) {
    return { rows: [], error: (err as Error).message.split('\n')[0] };
  }
  try {
    const api = bareApi(child.url);
    const server = `Prism ${prismVersion()}`;
    return {
      rows: [
        ...(await rowsFor(server, OPS.subscriptions, requests.subscriptions(api), child.proc.pid)),
        ...(await rowsFor(server, OPS.send, requests.sendMessage(api), child.proc.pid)),
      ],
      error: null,
    };
  } finally {
    await child.stop();
  }
}
