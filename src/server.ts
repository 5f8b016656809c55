// MockServer: the composition of contract, fixture, worlds (the default one and sandboxes),
// scenarios, journal, persistence and the Express app, with listen() and close(). The CLI,
// startMockServer() and the tests all build one.
import http from 'node:http';
import https from 'node:https';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { compileContract, type Contract } from './contract/contract.js';
import { fieldExistsAt } from './contract/shape.js';
import { createApp, type MockApp } from './app.js';
import { expressObjects } from './http/express-objects.js';
import { Clock } from './clock.js';
import { views as allViews } from './domain/views.js';
import {
  serverInfo,
  DEFAULT_SERVER_UPLOAD_SPACE_MIB,
  NEWEST_FEATURE_LEVEL,
  type ServerInfo,
  type ServerInfoOptions,
  type ExternalServices,
} from './domain/server-info.js';
import { heldUploadBytes } from './domain/uploads/upload.js';
import { cloneState, defaultFixturePath, stateSource } from './store/fixture.js';
import { STATE_RULES } from './domain/state-rules.js';
import { Persister, takeSnapshotSeq } from './store/persist.js';
import type { State } from './store/state.js';
import type { Views } from './domain/context.js';
import type { Violation } from './contract/violations.js';
import { Responder } from './http/respond.js';
import { emptyHooks, type PipelineHooks } from './pipeline/hooks.js';
import { coverageReport, type CoverageReport } from './control/coverage/report.js';
import { writeCoverageReport } from './control/coverage/write.js';
import { answerCacheHooks } from './pipeline/answer-cache.js';
import { World } from './world.js';
import { worldParts } from './control/world-parts.js';
import { Sandboxes } from './sandboxes.js';
import { Journal } from './control/journal.js';
import { learnSecretParameters, operationsAnsweringSecrets } from './control/redact.js';
import { ErrorCatalog } from './control/scenarios/error-catalog.js';
import { scenarioInterceptor } from './control/interceptor.js';
import { confirmEmailChangePage } from './control/confirm-page.js';
import { controlRouter } from './control/router.js';
import { endJournalStreams } from './control/journal-stream.js';
import { OutboxStreams } from './control/outbox-stream.js';
import { checkPushTarget, PushForwarder } from './control/push-target.js';
import { outboxOf } from './domain/outbox/outbox.js';
import { sandboxPrefix } from './control/sandbox.js';
import { loadScenario, NAME_PATTERN } from './control/scenarios/load.js';
import type { ControlHost } from './control/views.js';
import { badRequest } from './errors.js';
import { answerClientError, answerExpectationFailed } from './http/client-error.js';
import { rateLimiter } from './pipeline/rate-limit.js';
import { loginLimiter } from './pipeline/login-limit.js';
import { hostAllowList } from './http/host-check.js';
import type { Exchange } from './http/exchange.js';
import { Proxy } from './pipeline/proxy.js';
import { Recorder } from './control/scenarios/recorder.js';
import {
  listeningNames,
  selfSignedCertificate,
  servedCertificate,
  type ServedCertificate,
  type TlsCertificate,
} from './http/tls.js';
import { CallSlots, ServiceBotCalls, type ServiceBotOptions } from './domain/bots/outgoing/calls.js';
import { serviceBotExchange } from './control/service-bot-journal.js';

export interface MockServerOptions {
  /** Fixture file; default the embedded fixtures/default.json. */
  fixture?: string;
  /** Or the fixture state itself. */
  fixtureState?: State;
  /** Persist the default world's state to this file (loaded from it when it exists). */
  data?: string;
  /** With `data`: acknowledge writes only once they are on disk. */
  durable?: boolean;
  strictResponses?: boolean;
  /** Default true: check every response against the description (false only to measure its cost). */
  validateResponses?: boolean;
  /** Default true: reuse answers to reads while the state and the second stay the same. */
  answerCache?: boolean;
  featureLevel?: number;
  /** Seconds a GET /events waits before its heartbeat (default: the real server's 45-55, drawn per poll). */
  longpollTimeoutSeconds?: number;
  /** Batches of 100 messages one delete_topic request deletes at most (default: the description's x-batches-per-request). */
  deleteTopicBatches?: number;
  /** Refuse a user's requests past the real server's default limit (200 a minute) with 429 RATE_LIMIT_HIT. */
  rateLimit?: boolean;
  /** Answer as a production server where it differs from the development server (src/domain/server-rules.ts). */
  production?: boolean;
  /** Default true (unless production): the development login (POST /dev_fetch_api_key, GET /dev_list_users); false refuses it alone. */
  devLogin?: boolean;
  /** Scenarios (names of scenarios/ or files) active from the start in every world. */
  scenarios?: string[];
  /** The site clients should use (realm_url), when it is not the address the server listens on (a proxy, a container). */
  publicUrl?: string;
  /** Serve HTTPS with this certificate and key (PEM). */
  tls?: TlsCertificate;
  /** Serve HTTPS with a self-signed certificate made at listen() for the names clients reach it by. */
  https?: boolean;
  /** Token the control API requires (always required when listening beyond loopback). */
  controlToken?: string;
  /** Journal bounds. */
  journalEntries?: number;
  log?: (line: string) => void;
  /** Called with every answered API request (the command line's request log). */
  onRequest?: (exchange: Exchange) => void;
  /** Host names answered besides those of the listening address (DNS rebinding defence); ".name" allows subdomains too. */
  allowedHosts?: string[];
  /** At most this many sandboxes at once (default 256); past it a new one is refused until one is dropped or idle. */
  maxSandboxes?: number;
  /** Bytes of uploaded files each world (the default one, each sandbox) keeps at most (default 32 MiB); past it an upload gets the quota error. */
  maxUploadSpaceBytes?: number;
  /** Outside services the real server would be configured with (video calls, JWT key); see ExternalServices. */
  services?: ExternalServices;
  /** Bytes of uploaded files all worlds together keep at most (default DEFAULT_SERVER_UPLOAD_SPACE_MIB MiB). */
  maxTotalUploadSpaceBytes?: number;
  /** Origins allowed to call the API from a browser (CORS); never applied to the control API. */
  cors?: string[];
  /** Write the coverage of every sandbox to this file at close (HTML when it ends in .html, JSON otherwise). */
  coverageReport?: string;
  /** Proxy mode: what no scenario answers goes to this upstream site and its answer comes back, checked. */
  proxy?: string;
  /** With `proxy`: only these operationIds go upstream; the mock's state answers the rest. */
  proxyOnly?: string[];
  /** With `proxy`: save each upstream exchange as a rule of one replayable scenario file in this folder (see recorder.ts). */
  record?: string;
  /** Hosts besides loopback ones that outgoing webhook bots may post to (--allow-outgoing). */
  allowOutgoing?: string[];
  /** Deadline of one outgoing webhook try, ms (default the real server's 10 s; tests shorten it). */
  outgoingTimeoutMs?: number;
  /** POST every push notification the outbox records to this URL (loopback unless its host is in pushTargetHosts). */
  pushTarget?: string;
  /** Host names --push-target may name besides loopback addresses. */
  pushTargetHosts?: string[];
  /** Replace views (tests of the pipeline itself). */
  views?: Views;
}

let cachedContract: Contract | null = null;
/** The description is compiled once per process: it never changes while running. */
export function sharedContract(): Contract {
  return (cachedContract ??= compileContract());
}

let cachedCatalog: ErrorCatalog | null = null;
const sharedCatalog = () => (cachedCatalog ??= new ErrorCatalog(sharedContract()));

/** The public URL's host is answered too: clients reach the server under that name. */
const publicHost = (url: string | undefined): string[] => (url ? [new URL(url).hostname] : []);

/** Connection and request bounds (docs/security.md, "Limits"): room for thousands of long-polls, none for a slow-drip flood. */
const MAX_CONNECTIONS = 4096;
const HEADERS_TIMEOUT_MS = 10_000;
const REQUEST_TIMEOUT_MS = 30_000;
/** The real server's OUTGOING_WEBHOOK_TIMEOUT_SECONDS. */
const OUTGOING_TIMEOUT_MS = 10_000;
/** Service bot bounds per world: calls at once, answer bytes read, events waiting. */
const OUTGOING_CONCURRENCY = 8;
const OUTGOING_ANSWER_BYTES = 1024 * 1024;
const OUTGOING_QUEUE = 1000;
/** Calls in flight across all worlds: 256 sandboxes must not mean 2,048 sockets and answers held. */
const OUTGOING_CONCURRENCY_ALL_WORLDS = 16;

const isLoopback = (host: string) => host === 'localhost' || host === '::1' || host.startsWith('127.');

export class MockServer {
  readonly contract: Contract;
  readonly server: ServerInfo;
  readonly fixturePath: string | null;
  /** Gives a fresh copy of the fixture on each call (a file's is parsed from its bytes). */
  private readonly fixtureSource: () => State;
  readonly world: World;
  /** The sandboxes, made on first use (see sandboxes.ts). */
  private readonly sandboxSet: Sandboxes;
  readonly journal: Journal;
  readonly persister: Persister | null;
  private app: MockApp['express'] | null = null;
  private listener: MockApp['listener'] | null = null;
  private httpServer: http.Server | null = null;
  private readonly log: (line: string) => void;
  /** With `record`: the scenario file this session is recorded into (set by listen). */
  recordingFile: string | null = null;
  /** Told of every response that breaks the description. */
  private readonly violationObservers: Array<(v: Violation) => void> = [];
  /** Told of every finished exchange (the test suite's check that the errors views throw are described). */
  private readonly exchangeObservers: Array<(ex: Exchange) => void> = [];
  /** One sequence of exchange IDs per server: the journal orders by it. */
  private lastExchangeId = 0;
  baseUrl = '';
  /** With `tls` or `https`: the certificate answered with (set by listen). */
  certificate: ServedCertificate | null = null;
  /** What the default world reports as realm_url: the public URL, else baseUrl (set by listen). */
  siteUrl = '';

  constructor(readonly options: MockServerOptions = {}) {
    this.log = options.log ?? ((line: string) => console.error(line));
    if (options.record && !options.proxy) throw new Error('--record needs --proxy');
    this.contract = sharedContract();
    this.server = serverInfo(this.contract, options.featureLevel ?? NEWEST_FEATURE_LEVEL, this.serverInfoOptions());
    this.fixturePath = options.fixtureState ? null : (options.fixture ?? defaultFixturePath());
    const fixtureState = options.fixtureState;
    this.fixtureSource = fixtureState ? () => cloneState(fixtureState) : stateSource(this.fixturePath!, STATE_RULES);
    // The worlds parse their own copies: no parsed pristine copy is kept beside them.
    // Saved data, when there is some, is where the world starts; a reset still goes back to the fixture.
    const saved = options.data && existsSync(options.data) ? stateSource(options.data, STATE_RULES)() : undefined;
    const snapshotSeq = saved ? takeSnapshotSeq(saved) : 0;
    this.pushForwarder = options.pushTarget
      ? new PushForwarder(checkPushTarget(options.pushTarget, options.pushTargetHosts), this.log)
      : null;
    this.world = this.equip(new World('default', this.fixtureSource, new Clock(), worldParts(sharedCatalog()), saved));
    this.sandboxSet = new Sandboxes(this.world, this.fixtureSource, sharedCatalog(), options.maxSandboxes, (world) =>
      this.equip(world),
    );
    this.persister = options.data
      ? new Persister(options.data, this.world.store, snapshotSeq, { durable: options.durable })
      : null;
    this.journal = new Journal(options.journalEntries);
    this.journal.searchSecretsOnlyIn(operationsAnsweringSecrets(this.contract.doc, this.contract.operations));
    learnSecretParameters(this.contract.doc);
  }

  /** A fresh copy of the fixture. */
  get fixture(): State {
    return this.fixtureSource();
  }

  private readonly serverInfos = new Map<number, ServerInfo>();
  /** What the server reports when answering at `level`. */
  serverAt(level: number): ServerInfo {
    if (level === this.server.featureLevel) return this.server;
    let info = this.serverInfos.get(level);
    if (!info) this.serverInfos.set(level, (info = serverInfo(this.contract, level, this.serverInfoOptions())));
    return info;
  }

  private serverInfoOptions(): ServerInfoOptions {
    const {
      longpollTimeoutSeconds,
      production,
      devLogin,
      maxUploadSpaceBytes,
      deleteTopicBatches,
      allowOutgoing,
      services,
    } = this.options;
    const serverUploads = {
      limitBytes: this.options.maxTotalUploadSpaceBytes ?? DEFAULT_SERVER_UPLOAD_SPACE_MIB * 1024 * 1024,
      usedBytes: () =>
        [this.world, ...this.sandboxes.values()].reduce((sum, world) => sum + heldUploadBytes(world.store), 0),
    };
    return {
      heartbeatSeconds: longpollTimeoutSeconds,
      production,
      devLogin,
      uploadSpaceLimitBytes: maxUploadSpaceBytes,
      deleteTopicBatches,
      serverUploads,
      allowOutgoingHosts: allowOutgoing,
      services,
      rateLimiting: this.options.rateLimit ?? false,
    };
  }

  /** A new world as the server's worlds are: its server settings, its service bot calls, its pushes forwarded (--push-target). */
  private equip(world: World): World {
    // WEB_PUBLIC_STREAMS_ENABLED is off on a production server; the development server leaves it to the fixture.
    if (!this.server.rules.webPublicStreams) world.serverSettings = { web_public_streams_enabled: false };
    this.forwardPushes(world);
    return this.withServiceBots(world);
  }

  /** Bounds the service bot calls of all worlds together. */
  private readonly outgoingSlots = new CallSlots(OUTGOING_CONCURRENCY_ALL_WORLDS);

  /** The world's service bot queue: its calls bounded as the options say, each try in the journal. */
  private withServiceBots(world: World): World {
    const options: ServiceBotOptions = {
      timeoutMs: this.options.outgoingTimeoutMs ?? OUTGOING_TIMEOUT_MS,
      allowHosts: this.options.allowOutgoing ?? [],
      maxConcurrent: OUTGOING_CONCURRENCY,
      slots: this.outgoingSlots,
      maxAnswerBytes: OUTGOING_ANSWER_BYTES,
      maxQueued: OUTGOING_QUEUE,
    };
    world.serviceBots = new ServiceBotCalls(world, options, {
      level: () => world.featureLevel ?? this.server.featureLevel,
      version: (level) => this.serverAt(level).version,
      maxMessageLength: () => this.server.limits.max_message_length,
      record: (call) => {
        this.journal.record(serviceBotExchange(++this.lastExchangeId, world.name, call));
      },
    });
    return world;
  }

  /** Delivers recorded push notifications to --push-target. */
  private readonly pushForwarder: PushForwarder | null;

  private forwardPushes(world: World): void {
    const forwarder = this.pushForwarder;
    if (forwarder) outboxOf(world.store).onRecord((item) => forwarder.offer(world.name, item));
  }

  /** Live outbox feeds of the inspector and of tests (GET /__mock/outbox/stream). */
  private readonly outboxStreams = new OutboxStreams((name) => this.worldNamed(name));

  /** The default world's clock. */
  get clock(): Clock {
    return this.world.clock;
  }

  /** The sandboxes made so far, by name. */
  get sandboxes(): ReadonlyMap<string, World> {
    return this.sandboxSet.worlds;
  }

  /** The default world, or the named sandbox (created from the fixture on first use). */
  worldNamed(name: string): World {
    return this.sandboxSet.named(name);
  }

  private controlHost(): ControlHost {
    return {
      world: (name) => this.worldNamed(name),
      sandboxNames: () => this.sandboxSet.names(),
      dropSandbox: (name) => this.sandboxSet.drop(name),
      journal: this.journal,
      server: this.server,
      serverAt: (level) => this.serverAt(level),
      hasApiField: (level, schema, field) => fieldExistsAt(this.contract.doc, schema, field, level),
      fixturePath: this.fixturePath,
      coverage: (sandbox) => this.coverage(sandbox),
      resetCoverage: (sandbox) => {
        for (const w of sandbox === '*' ? this.sandboxSet.all() : [this.worldNamed(sandbox)]) w.parts.coverage.clear();
      },
      namedFixture: (name) => {
        if (!NAME_PATTERN.test(name)) throw badRequest(`Invalid fixture name '${name}'`);
        const file = path.join(path.dirname(defaultFixturePath()), `${name}.json`);
        if (!existsSync(file)) throw badRequest(`No fixture named '${name}'`);
        // Checked now (a broken file is the request's error), then kept as bytes like the default fixture.
        try {
          const source = stateSource(file, STATE_RULES);
          source();
          return source;
        } catch (err) {
          throw badRequest((err as Error).message);
        }
      },
    };
  }

  /** Calls `observer` with every response that breaks the description (the test suite's contract guard). */
  onViolation(observer: (v: Violation) => void): void {
    this.violationObservers.push(observer);
  }

  /** Calls `observer` with every finished exchange; observers must be added before listen(). */
  onExchange(observer: (ex: Exchange) => void): void {
    this.exchangeObservers.push(observer);
  }

  /** Loads the start-up scenarios (async: TypeScript scenarios are imported). */
  private async prepare(host: string): Promise<void> {
    for (const s of this.options.scenarios ?? []) {
      const loaded = await loadScenario(s);
      this.sandboxSet.startWith(loaded);
      this.world.parts.scenarios.activate(loaded.scenario, loaded.source, this.world.store);
    }
    const token = this.options.controlToken ?? null;
    const responder = new Responder(this.contract, {
      strictResponses: !!this.options.strictResponses,
      validateResponses: this.options.validateResponses ?? true,
      log: this.log,
    });
    responder.violationObservers.push((v) => {
      for (const observe of this.violationObservers) observe(v);
    });
    const nextId = () => ++this.lastExchangeId;
    const hooks = emptyHooks();
    hooks.authenticated.push(rateLimiter({ enforce: this.options.rateLimit ?? false }));
    if (this.options.rateLimit) {
      const logins = loginLimiter();
      hooks.beforeHandle.push(...logins.beforeHandle);
      hooks.afterRespond.push(...logins.afterRespond);
    }
    hooks.intercept.push(scenarioInterceptor());
    if (this.options.answerCache ?? true) {
      const reuse = answerCacheHooks();
      hooks.beforeHandle.push(...reuse.beforeHandle);
      hooks.afterRespond.push(...reuse.afterRespond);
    }
    // Durable mode: a request that changed the persisted world is answered once it is on disk.
    // The control API's changes (reset, import, scenario state patches) are held the same way.
    const durableWrites: PipelineHooks['beforeRespond'] = this.persister?.durable
      ? [(call) => (call.world === this.world ? this.persister!.flushed() : undefined)]
      : [];
    hooks.beforeRespond.push(...durableWrites);
    hooks.record.push((ex) => this.journal.record(ex));
    hooks.record.push((ex) => this.sandboxSet.existing(ex.sandbox)?.parts.coverage.record(ex));
    if (this.options.onRequest) hooks.record.push(this.options.onRequest);
    if (this.exchangeObservers.length)
      hooks.record.push((ex) => {
        for (const observe of this.exchangeObservers) observe(ex);
      });
    const { express: app, listener } = createApp({
      contract: this.contract,
      views: this.options.views ?? allViews,
      responder,
      serverLevel: this.server.featureLevel,
      serverAt: (level) => this.serverAt(level),
      worldFor: this.sandboxSet.worldFor,
      adopt: this.sandboxSet.adopt,
      nextId,
      hooks,
      rewrite: sandboxPrefix,
      hostAllowed: hostAllowList(host, [...(this.options.allowedHosts ?? []), ...publicHost(this.options.publicUrl)]),
      cors: this.options.cors,
      proxy: this.proxy(),
      mounts: [
        [
          '/__mock',
          controlRouter({
            host: this.controlHost(),
            server: this.server,
            worldFor: this.sandboxSet.worldFor,
            adopt: this.sandboxSet.adopt,
            token,
            closed: !isLoopback(host) && !token,
            log: this.log,
            nextId,
            beforeRespond: durableWrites,
            outboxStreams: this.outboxStreams,
          }),
        ],
        ['/accounts/confirm_new_email', confirmEmailChangePage(this.sandboxSet.worldFor)],
      ],
    });
    this.app = app;
    this.listener = listener;
  }

  /** The proxy stage of proxy mode, with the recorder told of its exchanges when recording. */
  private proxy(): Proxy | undefined {
    if (!this.options.proxy) return undefined;
    const recorder = this.options.record ? new Recorder(this.options.record) : null;
    this.recordingFile = recorder?.file ?? null;
    return new Proxy(
      { upstream: this.options.proxy, only: this.options.proxyOnly, onExchange: recorder?.add },
      this.contract,
    );
  }

  async listen(port = 0, host = '127.0.0.1'): Promise<string> {
    await this.prepare(host);
    const { tls, https: selfSigned } = this.options;
    this.certificate = tls
      ? servedCertificate(tls)
      : selfSigned
        ? await selfSignedCertificate(listeningNames(host, this.options.publicUrl))
        : null;
    const server: http.Server = this.certificate
      ? https.createServer(
          { ...expressObjects(this.app!), cert: this.certificate.cert, key: this.certificate.key },
          this.listener!,
        )
      : http.createServer(expressObjects(this.app!), this.listener!);
    server.keepAliveTimeout = 65_000;
    // Shorter than Node's defaults (60 s for headers, 300 s for the whole request): a client that
    // drips its request holds a connection for seconds, not minutes. Answers (long-polls) are not limited.
    server.headersTimeout = HEADERS_TIMEOUT_MS;
    server.requestTimeout = REQUEST_TIMEOUT_MS;
    server.maxConnections = MAX_CONNECTIONS;
    server.on('clientError', answerClientError);
    server.on('checkExpectation', answerExpectationFailed);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    this.httpServer = server;
    const addr = server.address() as AddressInfo;
    const shownHost = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
    this.baseUrl = `${this.certificate ? 'https' : 'http'}://${shownHost}:${addr.port}`;
    this.siteUrl = (this.options.publicUrl ?? this.baseUrl).replace(/\/+$/, '');
    this.world.siteUrl = this.siteUrl;
    this.sandboxSet.listening(this.siteUrl);
    return this.baseUrl;
  }

  /** The coverage report of one sandbox, or of all of them together (`*`). */
  coverage(sandbox = '*'): CoverageReport {
    const worlds = sandbox === '*' ? this.sandboxSet.all() : [this.worldNamed(sandbox)];
    const level = sandbox === '*' ? this.server.featureLevel : (worlds[0].featureLevel ?? this.server.featureLevel);
    return coverageReport(
      this.contract,
      sharedCatalog(),
      worlds.map((w) => w.parts.coverage),
      level,
      sandbox,
    );
  }

  async close(): Promise<void> {
    if (this.options.coverageReport) writeCoverageReport(this.options.coverageReport, this.coverage());
    const server = this.httpServer;
    this.httpServer = null;
    // The worlds first: they end waiting long-polls, which the HTTP server's close would wait for.
    this.world.close();
    this.sandboxSet.close();
    // Open journal streams (the inspector) would keep the HTTP server from closing.
    endJournalStreams(this.journal);
    this.outboxStreams.endAll();
    if (server) {
      // Let the ended long-polls answer, so that their connections are idle when closed below.
      await new Promise<void>((resolve) => setTimeout(resolve, 10));
      server.closeIdleConnections?.();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections?.();
    }
    await this.persister?.close();
  }
}
