// The package's programmatic entry: start an isolated mock from a test runner.
import { MockServer, type MockServerOptions } from './server.js';
import type { User } from './store/state.js';

export { MockServer, type MockServerOptions } from './server.js';
export type { State, User } from './store/state.js';

export interface StartedMock {
  /** e.g. http://127.0.0.1:43125 (the API is under /api/v1). */
  baseUrl: string;
  /** The fixture's users with their credentials. */
  users: Array<Pick<User, 'user_id' | 'email' | 'api_key' | 'full_name' | 'role' | 'is_bot' | 'is_active'>>;
  server: MockServer;
  close(): Promise<void>;
}

/** Starts a mock on a free loopback port with its own in-memory state. */
export async function startMockServer(options: MockServerOptions & { port?: number; host?: string } = {}): Promise<StartedMock> {
  const server = new MockServer({ log: () => {}, ...options });
  const baseUrl = await server.listen(options.port ?? 0, options.host ?? '127.0.0.1');
  const users = server.world.store.users.all().map(({ user_id, email, api_key, full_name, role, is_bot, is_active }) =>
    ({ user_id, email, api_key, full_name, role, is_bot, is_active }));
  return { baseUrl, users, server, close: () => server.close() };
}
