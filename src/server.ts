// MockServer: the composition of contract, fixture, worlds, clock, persistence and the Express
// app, with listen() and close(). The CLI, startMockServer() and the tests all build one.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Request } from 'express';
import { compileContract, type Contract } from './contract/contract.js';
import { createApp } from './app.js';
import { Clock } from './control/clock.js';
import { views as allViews } from './domain/views.js';
import { serverInfo, NEWEST_FEATURE_LEVEL, type ServerInfo } from './domain/server-info.js';
import { defaultFixturePath, readStateFile } from './store/fixture.js';
import { Persister } from './store/persist.js';
import type { State } from './store/state.js';
import type { ViewTable } from './domain/context.js';
import type { Responder } from './http/respond.js';
import { World } from './world.js';
import { existsSync } from 'node:fs';

export interface MockServerOptions {
  /** Fixture file; default the embedded fixtures/default.json. */
  fixture?: string;
  /** Or the fixture state itself. */
  fixtureState?: State;
  /** Persist state to this file (loaded from it when it exists). */
  data?: string;
  /** With `data`: acknowledge writes only once they are on disk. */
  durable?: boolean;
  strictResponses?: boolean;
  featureLevel?: number;
  longpollTimeoutSeconds?: number;
  log?: (line: string) => void;
  /** Replace views (tests of the pipeline itself). */
  views?: ViewTable;
}

let cachedContract: Contract | null = null;
/** The description is compiled once per process: it never changes while running. */
export function sharedContract(): Contract {
  return (cachedContract ??= compileContract());
}

export class MockServer {
  readonly contract: Contract;
  readonly clock = new Clock();
  readonly server: ServerInfo;
  readonly fixturePath: string | null;
  readonly world: World;
  readonly persister: Persister | null;
  readonly app: ReturnType<typeof createApp>['app'];
  readonly responder: Responder;
  private httpServer: http.Server | null = null;
  baseUrl = '';

  constructor(readonly options: MockServerOptions = {}) {
    this.contract = sharedContract();
    this.server = serverInfo(this.contract, options.featureLevel ?? NEWEST_FEATURE_LEVEL, options.longpollTimeoutSeconds);
    this.fixturePath = options.fixtureState ? null : options.fixture ?? defaultFixturePath();
    const fixture = options.fixtureState ?? readStateFile(this.fixturePath!);
    const initial = options.data && existsSync(options.data) ? readStateFile(options.data) : fixture;
    this.world = new World('default', initial, this.clock);
    this.persister = options.data ? new Persister(options.data, this.world.store) : null;
    const { app, responder } = createApp({
      contract: this.contract,
      views: options.views ?? allViews,
      clock: this.clock,
      server: this.server,
      worldFor: (_req: Request) => this.world,
      strictResponses: options.strictResponses,
      log: options.log,
    });
    this.app = app;
    this.responder = responder;
  }

  async listen(port = 0, host = '127.0.0.1'): Promise<string> {
    const server = http.createServer(this.app);
    server.keepAliveTimeout = 65_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    this.httpServer = server;
    const addr = server.address() as AddressInfo;
    const shownHost = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
    this.baseUrl = `http://${shownHost}:${addr.port}`;
    return this.baseUrl;
  }

  async close(): Promise<void> {
    const server = this.httpServer;
    this.httpServer = null;
    if (server) {
      server.closeIdleConnections?.();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections?.();
    }
    this.world.close();
    await this.persister?.close();
  }
}
