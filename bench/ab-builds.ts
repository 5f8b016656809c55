// Two builds compared on one request, in this process: each build's MockServer (its dist/, so an
// older commit built in a clone), requests handed to its HTTP server as in-memory request and
// response objects (no socket, no client process, no kernel), 32 in flight, in alternating rounds.
// Prints the CPU time per request of each (min and median of the rounds) and the median of the
// paired ratios new/base: rounds run back to back share the machine's load, so on a machine shared
// with other work their ratio moves far less than either figure (the figures include the
// in-memory request objects, the same for both builds). Not the bench: no socket is written.
// Requests and responses are made with the classes the server was created with (Express's
// prototypes in place, as over a socket), so that Express's per-request setPrototypeOf costs
// neither build what it does not cost the server.
//   node --import tsx bench/ab-builds.ts BASE_ROOT NEW_ROOT OPERATION [ROUNDS] [PER_ROUND]
// OPERATION: invite, invite-link, resend, subscribe-and-leave, register, events, api-key, send,
// navigation-views, user-channels, dm-fanout, webhook, or any request of bench/lib/mock.ts taking
// only the API (uploadFile, addNavigationView, ...). webhook is quick.ts's row: a message
// mentioning an outgoing webhook bot whose server (in this process, on loopback: the only
// sockets written) answers response_not_required; each request yields to the event loop, as a
// socket's would, so that the calls run beside the sends, and a round ends when they have
// settled (their CPU is the round's, the bot server's included, the same for both). Views that
// answer after an await (the settle call, JWT login) never finish with these in-memory objects.
// (e.g. git clone -q . /tmp/base && cd /tmp/base && git checkout OLD && ln -s $PWD/node_modules && npm run build)
import http from 'node:http';
import path from 'node:path';
import { Duplex } from 'node:stream';
import { requests, send, SERVICES, type Api, type Req } from './lib/mock.js';
import { startBotListener, type BotListener } from './lib/bot-listener.js';

const [baseRoot, newRoot, op = 'invite', roundsArg = '60', perArg = '500'] = process.argv.slice(2);
if (!baseRoot || !newRoot) throw new Error('usage: ab-builds.ts BASE_ROOT NEW_ROOT OPERATION [ROUNDS] [PER_ROUND]');
const rounds = Number(roundsArg);
const perRound = Number(perArg);
// The invitation rows run on a --production mock, as the bench's (the daily limit otherwise).
const production = op === 'invite' || op === 'invite-link' || op === 'resend';

/** Swallows what the response writes. */
class NullSocket extends Duplex {
  remoteAddress = '127.0.0.1';
  override _read(): void {}
  override _write(_chunk: unknown, _encoding: unknown, done: () => void): void {
    done();
  }
}

interface Server {
  listen(port: number): Promise<string>;
  close(): Promise<void>;
}

async function setUp(root: string) {
  const { MockServer } = (await import(path.join(path.resolve(root), 'dist/src/server.js'))) as {
    MockServer: new (options: object) => Server;
  };
  const server = new MockServer({
    log: () => {},
    production,
    fixture: path.join(path.resolve(root), 'fixtures/classic.json'),
    // As the bench's mock (SERVICE_ARGS), so that the call and JWT rows answer as they do there.
    services: SERVICES,
  });
  const base = await server.listen(0);
  const httpServer = (server as unknown as { httpServer: http.Server }).httpServer;
  const api = (p: string) => `${base}/api/v1${p}`;
  // The classes the server makes its requests and responses with (node:http keeps them under symbols).
  const classOf = <T>(name: string, fallback: T): T => {
    const key = Object.getOwnPropertySymbols(httpServer).find((s) => s.description === name);
    return ((key && (httpServer as unknown as Record<symbol, T>)[key]) ?? fallback) as T;
  };
  const Incoming = classOf('IncomingMessage', http.IncomingMessage);
  const Outgoing = classOf('ServerResponse', http.ServerResponse);
  const call = (req: Req): Promise<number> =>
    new Promise((resolve) => {
      const socket = new NullSocket();
      const incoming = new (Incoming as unknown as new (s: never) => http.IncomingMessage)(socket as never);
      const url = new URL(req.url);
      incoming.method = req.method ?? 'GET';
      incoming.url = url.pathname + url.search;
      incoming.httpVersionMajor = 1;
      incoming.httpVersionMinor = 1;
      incoming.httpVersion = '1.1';
      const headers: Record<string, string> = { host: url.host };
      for (const [k, v] of Object.entries(req.headers ?? {})) headers[k.toLowerCase()] = String(v);
      if (req.body !== undefined) headers['content-length'] = String(Buffer.byteLength(req.body));
      incoming.headers = headers;
      incoming.rawHeaders = Object.entries(headers).flat();
      if (req.body !== undefined) incoming.push(Buffer.from(req.body));
      incoming.push(null);
      const res = new (Outgoing as unknown as new (r: http.IncomingMessage) => http.ServerResponse)(incoming);
      res.assignSocket(socket as never);
      res.on('finish', () => resolve(res.statusCode));
      httpServer.emit('request', incoming, res);
    });
  let bot: BotListener | null = null;
  const pick: Record<string, () => Promise<Req>> = {
    invite: async () => requests.sendInvite(api),
    // Hamlet's invitation emailed again, each time.
    resend: async () => {
      await send(requests.sendInvite(api));
      const invites = (await send(requests.invites(api))).json.invites as Array<{ id: number }>;
      return requests.resendInvite(api, invites[0].id);
    },
    // A direct message by Hamlet once he holds 200 message queues (quick.ts's register row leaves
    // him a thousand; 200 keep the events they accumulate unpolled within memory): each queue
    // gets the message event.
    'dm-fanout': async () => {
      for (let i = 0; i < 200; i += 20)
        await Promise.all(Array.from({ length: 20 }, () => send(requests.register(api))));
      return requests.sendNotifyingDm(api);
    },
    webhook: async () => {
      bot = await startBotListener();
      await send(requests.createOutgoingBot(api, bot.url));
      return requests.mentionOutgoingBot(api);
    },
    'invite-link': async () => requests.createInviteLink(api),
    'subscribe-and-leave': async () => requests.subscribeAndLeave(api),
    register: async () => requests.register(api),
    // The cheapest rows of the bench (the pipeline's fixed cost), and the send.
    'api-key': async () => requests.botApiKey(api),
    send: async () => requests.sendMessage(api),
    'navigation-views': async () => requests.navigationViews(api),
    'user-channels': async () => requests.userChannels(api),
    // A queue of its own, registered over the socket (its ID is in the answer).
    events: async () => requests.events(api, (await send(requests.register(api))).json.queue_id),
  };
  const other = (requests as unknown as Record<string, (api: Api) => Req>)[op];
  if (!pick[op] && other?.length !== 1)
    throw new Error(`no operation ${op}: ${Object.keys(pick).join(', ')} or a request of bench/lib/mock.ts`);
  const req = pick[op] ? await pick[op]() : other(api);
  // The first "already exists" refusal needs the thing made once.
  if (req.expectStatus && req.expectStatus !== 200) await send(req);
  const settle: Req = {
    url: `${base}/__mock/outgoing/settle`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"timeout_ms":60000}',
  };
  const statuses: Record<number, number> = {};
  const batch = async (n: number) => {
    let left = n;
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        while (left-- > 0) {
          const status = await call(req);
          statuses[status] = (statuses[status] ?? 0) + 1;
          if (bot) await new Promise((resolve) => setImmediate(resolve));
        }
      }),
    );
    // Over a socket: the in-memory objects do not carry this answer's wait.
    if (bot) await send(settle);
  };
  return { server, batch, statuses, bot: () => bot };
}

const builds = { base: await setUp(baseRoot), new: await setUp(newRoot) };
for (const b of Object.values(builds)) await b.batch(perRound * 6);
const us: Record<'base' | 'new', number[]> = { base: [], new: [] };
for (let i = 0; i < rounds; i++) {
  for (const k of i % 2 ? (['new', 'base'] as const) : (['base', 'new'] as const)) {
    const before = process.cpuUsage();
    await builds[k].batch(perRound);
    const used = process.cpuUsage(before);
    us[k].push((used.user + used.system) / perRound);
  }
}
const median = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
const figures = (a: number[]) => `min ${Math.min(...a).toFixed(0)} median ${median(a).toFixed(0)} µs`;
console.log(
  `${op}: base ${figures(us.base)}; new ${figures(us.new)}; paired new/base median ${median(us.new.map((n, i) => n / us.base[i])).toFixed(3)}`,
  `(statuses: base ${JSON.stringify(builds.base.statuses)}, new ${JSON.stringify(builds.new.statuses)})`,
);
for (const b of Object.values(builds)) {
  await b.server.close();
  await b.bot()?.close();
}
process.exit(0);
