// One server for a test file that reads the outbox, reset (state and outbox) before each test, so
// that each test sees only what it caused.
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startTestServer, type TestServer } from './server.js';
import { ControlClient } from '../../src/control/client.js';

export interface OutboxSuite {
  readonly t: TestServer;
  readonly control: ControlClient;
}

export function outboxSuite(): OutboxSuite {
  let t: TestServer | undefined;
  let control: ControlClient | undefined;
  beforeAll(async () => {
    t = await startTestServer();
    control = new ControlClient(t.base);
  });
  beforeEach(async () => {
    t!.server.world.reset();
    await control!.outbox.clear();
  });
  afterAll(async () => {
    await t?.close();
  });
  return {
    get t() {
      return t!;
    },
    get control() {
      return control!;
    },
  };
}
