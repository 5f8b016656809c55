// The package's programmatic entry: start an isolated mock from a test runner.
import { MockServer, type MockServerOptions } from './server.js';
import { ControlClient } from './control/client.js';
import type { User } from './store/state.js';
import { fetchTrusting } from './http/tls.js';

export { MockServer, type MockServerOptions } from './server.js';
export { ControlClient, ControlError } from './control/client.js';
export type { OutboxPage, OutboxFilter } from './control/client.js';
export type { OutboxItem } from './domain/outbox/outbox.js';
export { defineScenario } from './control/scenarios/types.js';
export type { Scenario, Rule, Effect, ScenarioRequest } from './control/scenarios/types.js';
export type { State, User } from './store/state.js';

export type MockUser = Pick<User, 'user_id' | 'email' | 'api_key' | 'full_name' | 'role' | 'is_bot' | 'is_active'>;

export interface StartedMock {
  /** e.g. http://127.0.0.1:43125, or https://... with `https` or `tls` (the API is under /api/v1). */
  baseUrl: string;
  /** With `https` or `tls`: the certificate (PEM) a client must trust, e.g. as its CA. */
  certificate: string | null;
  /** The fixture's users with their credentials. */
  users: MockUser[];
  /** A fixture user by email or local part ('hamlet'). */
  user(who: string): MockUser;
  /** The control API: reset, scenarios, journal, clock, state. */
  control: ControlClient;
  /** An isolated sandbox of this server: its site URL (for any client) and its control client. */
  sandbox(name: string): { baseUrl: string; control: ControlClient };
  server: MockServer;
  close(): Promise<void>;
}

/** Starts a mock on a free loopback port with its own in-memory state. */
export async function startMockServer(
  options: MockServerOptions & { port?: number; host?: string } = {},
): Promise<StartedMock> {
  const server = new MockServer({ log: () => {}, ...options });
  const baseUrl = await server.listen(options.port ?? 0, options.host ?? '127.0.0.1');
  const users = server.world.store.users
    .all()
    .map(({ user_id, email, api_key, full_name, role, is_bot, is_active }) => ({
      user_id,
      email,
      api_key,
      full_name,
      role,
      is_bot,
      is_active,
    }));
  const certificate = server.certificate?.cert ?? null;
  const control = new ControlClient(baseUrl, {
    token: options.controlToken,
    fetch: certificate ? fetchTrusting(certificate) : undefined,
  });
  return {
    baseUrl,
    certificate,
    users,
    user: (who) => {
      const email = (who.includes('@') ? who : `${who}@zulip.com`).toLowerCase();
      const u = users.find((x) => x.email.toLowerCase() === email);
      if (!u) throw new Error(`no fixture user ${who}`);
      return u;
    },
    control,
    sandbox: (name) => ({ baseUrl: `${baseUrl}/sandbox/${name}`, control: control.sandbox(name) }),
    server,
    close: () => server.close(),
  };
}
