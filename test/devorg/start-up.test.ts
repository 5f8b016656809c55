// Starting on the default fixture, as `npm start` does: the command line prints the real
// organization's users with their IDs, and every user of it gets a register answer that the
// description accepts (the suite's contract guard checks each one). The suite itself starts from
// the classic fixture, which TEAMCHAT_MOCK_DEFAULT_FIXTURE names (vitest.config.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_FIXTURE_ENV, defaultFixturePath, embeddedFixturePath, FixtureError } from '../../src/store/fixture.js';
import { startCli } from '../helpers/cli.js';
import { startTestServer, type TestServer } from '../helpers/server.js';

describe('the default fixture at start-up', () => {
  it('is fixtures/default.json unless TEAMCHAT_MOCK_DEFAULT_FIXTURE names another embedded fixture', () => {
    expect(process.env[DEFAULT_FIXTURE_ENV]).toBe('classic');
    expect(defaultFixturePath()).toBe(embeddedFixturePath('classic'));
    expect(embeddedFixturePath('default')).toMatch(/fixtures[/\\]default\.json$/);
    expect(() => embeddedFixturePath('../package')).toThrow(FixtureError);
    expect(() => embeddedFixturePath('nothing-here')).toThrow(/missing/);
  });

  it('prints the real organization’s users with their IDs when started without --fixture', async () => {
    const cli = await startCli([], { env: { ...process.env, [DEFAULT_FIXTURE_ENV]: '' } });
    try {
      // The table follows the address line: wait for the line after it.
      for (let i = 0; i < 200 && !cli.stdout().includes('control API:'); i++)
        await new Promise((r) => setTimeout(r, 50));
      const out = cli.stdout();
      expect(out).toMatch(/fixture: .*fixtures[/\\]default\.json/);
      expect(out).toMatch(/^role\s+id\s+email\s+api key\s+name$/m);
      expect(out).toMatch(/^member\s+10\s+hamlet@zulip\.com\s+waG3GG7y6IC8lCLl0GJUzQa1hgDGih9f\s+King Hamlet$/m);
      expect(out).toMatch(/^administrator\s+11\s+iago@zulip\.com\s/m);
      expect(out).toMatch(/^bot\s+1\s+emailgateway@zulip\.com\s/m);
      // A deactivated user is not offered.
      expect(out).not.toContain('ariel@zulip.com');
    } finally {
      await cli.stop();
    }
  });
});

describe('register on the default fixture', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ fixture: embeddedFixturePath('default') });
  });
  afterAll(() => t.close());

  it('answers every active user, with the organization seen from each', async () => {
    const users = t.server.world.store.users.all().filter((u) => u.is_active && !u.is_system_bot);
    expect(users.length).toBe(15);
    for (const u of users) {
      const r = await t.as(u.email).post('/register', {});
      expect(r.status, u.email).toBe(200);
      expect(r.body.user_id).toBe(u.user_id);
      expect(r.body.realm_name).toBe('Zulip Dev');
    }
  });
});
