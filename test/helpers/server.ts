// Starts a real server on a free port for a test file and gives typed helpers to call it as any
// fixture user. Every response still passes through the contract guard.
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { MockServer, type MockServerOptions } from '../../src/server.js';
import type { User } from '../../src/store/state.js';
import { ControlClient } from '../../src/control/client.js';

export interface CallResult<T = any> {
  status: number;
  body: T;
  headers: Headers;
}

export type Params = Record<string, unknown>;

/** Encodes parameters as the real clients do: strings as they are, everything else as JSON. */
export function formEncode(params: Params): URLSearchParams {
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v === undefined) continue;
    form.append(k, typeof v === 'string' ? v : JSON.stringify(v));
  }
  return form;
}

export function basicAuth(email: string, apiKey: string): string {
  return `Basic ${Buffer.from(`${email}:${apiKey}`).toString('base64')}`;
}

export class Client {
  constructor(
    private readonly base: string,
    readonly user: User | null,
    private readonly extraHeaders: Record<string, string> = {},
  ) {}

  private headers(): Record<string, string> {
    const h: Record<string, string> = { ...this.extraHeaders };
    if (this.user) h.authorization = basicAuth(this.user.delivery_email, this.user.api_key);
    return h;
  }

  async call<T = any>(
    method: string,
    path: string,
    params: Params = {},
    options: { in?: 'query' | 'body' } = {},
  ): Promise<CallResult<T>> {
    const where = options.in ?? (method === 'GET' ? 'query' : 'body');
    const form = formEncode(params);
    const url = `${this.base}/api/v1${path}${where === 'query' && [...form].length ? `?${form}` : ''}`;
    const init: RequestInit = { method, headers: this.headers() };
    if (where === 'body') {
      init.body = form;
      (init.headers as Record<string, string>)['content-type'] = 'application/x-www-form-urlencoded';
    }
    const res = await fetch(url, init);
    const text = await res.text();
    let body: any = text;
    try {
      body = JSON.parse(text);
    } catch {
      /* leave text */
    }
    return { status: res.status, body, headers: res.headers };
  }

  get<T = any>(path: string, params?: Params) {
    return this.call<T>('GET', path, params);
  }
  post<T = any>(path: string, params?: Params) {
    return this.call<T>('POST', path, params);
  }
  patch<T = any>(path: string, params?: Params) {
    return this.call<T>('PATCH', path, params);
  }
  delete<T = any>(path: string, params?: Params) {
    return this.call<T>('DELETE', path, params);
  }
}

export interface TestServer {
  server: MockServer;
  base: string;
  /** A client acting as the fixture user with this email (or short name: 'hamlet'), with extra headers. */
  as(who: string, headers?: Record<string, string>): Client;
  anonymous(): Client;
  user(who: string): User;
  close(): Promise<void>;
}

/**
 * The level test servers answer at unless a test says otherwise: TEST_FEATURE_LEVEL (the suite's
 * run at 10.2's level, vitest.config.ts), else the newest.
 */
const testLevel = process.env.TEST_FEATURE_LEVEL ? Number(process.env.TEST_FEATURE_LEVEL) : undefined;

export async function startTestServer(options: MockServerOptions = {}): Promise<TestServer> {
  const server = new MockServer({ log: () => {}, featureLevel: testLevel, ...options });
  const base = await server.listen(0);
  const user = (who: string): User => {
    const email = who.includes('@') ? who : `${who}@zulip.com`;
    const lower = email.toLowerCase();
    // By the API email, or by the real address for an account that hides it (stand-in API email).
    const u =
      server.world.store.users.by('email', lower) ??
      server.world.store.users.find((x) => x.delivery_email.toLowerCase() === lower);
    if (!u) throw new Error(`no fixture user ${email}`);
    return u;
  };
  return {
    server,
    base,
    user,
    as: (who: string, headers?: Record<string, string>) => new Client(base, user(who), headers),
    anonymous: () => new Client(base, null),
    close: () => server.close(),
  };
}

/**
 * A fresh server for every test of the file: started before each test and handed to `take`,
 * closed after it (the seven lines of beforeEach and afterEach each such file wrote out).
 */
export function serverPerTest(take: (server: TestServer) => void, options: MockServerOptions = {}): void {
  let current: TestServer | null = null;
  beforeEach(async () => {
    current = await startTestServer(options);
    take(current);
  });
  afterEach(async () => {
    await current?.close();
    current = null;
  });
}

/**
 * One server for the whole file, handed to `take` once started, put back to its fixture before
 * every test (the control API's reset), closed after the last: cheaper than a server per test
 * for files whose tests only need a fresh state.
 */
export function serverResetPerTest(take: (server: TestServer) => void, options: MockServerOptions = {}): void {
  let current: TestServer | null = null;
  beforeAll(async () => {
    current = await startTestServer(options);
    take(current);
  });
  afterAll(async () => {
    await current?.close();
    current = null;
  });
  beforeEach(async () => {
    await new ControlClient(current!.base).reset();
  });
}
