#!/usr/bin/env node
// Command-line entry: parse flags, start the server, print where it listens and who can log in,
// shut down cleanly on SIGINT/SIGTERM.
import { Command, InvalidArgumentError } from 'commander';
import { MockServer } from './server.js';
import { FixtureError } from './store/fixture.js';
import { usersTable, writeZuliprc } from './cli-output.js';

function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('a port number from 0 to 65535');
  return n;
}

const program = new Command()
  .name('teamchat-mock')
  .description('Mock and contract-test server for the team chat (Zulip) REST API')
  .option('--port <n>', 'port to listen on; 0 picks a free one', port, 9991)
  .option('--host <addr>', 'address to listen on', '127.0.0.1')
  .option('--fixture <file>', 'fixture to start from (default: the embedded fixtures/default.json)')
  .option('--data <file>', 'persist state to this file (loaded from it when it exists); default: memory only')
  .option('--feature-level <n>', 'answer as a server of this feature level (default: the newest)', (v: string) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('a feature level (a whole number)');
    return n;
  })
  .option('--longpoll-timeout <seconds>', 'seconds a GET /events waits before a heartbeat (default: 45-55, as the real server)', (v: string) => {
    const n = Number(v);
    if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('a positive number of seconds');
    return n;
  })
  .option('--durable', 'with --data: answer a request only once its changes are on disk', false)
  .option('--public-url <url>', 'the site clients use when it is not the listening address (realm_url, zuliprc)', (v: string) => {
    try { return new URL(v).href.replace(/\/+$/, ''); } catch { throw new InvalidArgumentError('an absolute URL, e.g. https://chat.example.com'); }
  })
  .option('--rate-limit', "refuse a user's requests past the real server's default limit (200 a minute, mock clock) with 429", false)
  .option('--strict-responses', 'answer 500 when a response breaks the OpenAPI description', false)
  .option('--no-validate-responses', 'do not check responses against the description (to measure what the check costs)')
  .option('--no-answer-cache', 'build every answer to a read anew (to measure what reusing them saves)')
  .option('--zuliprc <email>', 'write a zuliprc file for this fixture user into the current folder')
  .option('--scenario <name|file>', 'activate a scenario from the start (repeatable)', (v: string, all: string[]) => [...all, v], [] as string[])
  .option('--control-token <token>', 'token the /__mock control API requires (header X-Mock-Token); needed when --host is not loopback')
  .showHelpAfterError();

async function main(): Promise<void> {
  program.parse();
  const opts = program.opts<{
    port: number; host: string; fixture?: string; data?: string; durable: boolean; strictResponses: boolean; validateResponses: boolean; answerCache: boolean; zuliprc?: string;
    scenario: string[]; controlToken?: string; featureLevel?: number; longpollTimeout?: number; rateLimit: boolean; publicUrl?: string;
  }>();
  let server: MockServer;
  try {
    server = new MockServer({
      fixture: opts.fixture, data: opts.data, durable: opts.durable, strictResponses: opts.strictResponses, validateResponses: opts.validateResponses, answerCache: opts.answerCache,
      scenarios: opts.scenario, controlToken: opts.controlToken, featureLevel: opts.featureLevel,
      longpollTimeoutSeconds: opts.longpollTimeout, rateLimit: opts.rateLimit, publicUrl: opts.publicUrl,
    });
  } catch (err) {
    if (err instanceof FixtureError) {
      console.error(`teamchat-mock: ${err.message}`);
      process.exit(2);
    }
    throw err;
  }
  let base: string;
  try {
    base = await server.listen(opts.port, opts.host);
  } catch (err) {
    console.error(`teamchat-mock: cannot start: ${(err as Error).message}`);
    process.exit(2);
  }
  const users = server.world.store.users.all();
  console.log(`teamchat-mock listening on ${base} (API at ${base}/api/v1, feature level ${server.server.featureLevel})`);
  console.log(`fixture: ${server.fixturePath ?? '(in memory)'}${opts.data ? `, data: ${opts.data}` : ''}`);
  console.log(usersTable(users));
  const active = server.world.scenarios.active.map((a) => a.scenario.name);
  if (active.length) console.log(`scenarios active: ${active.join(', ')}`);
  console.log(`control API: ${base}/__mock (inspector: ${base}/__mock/ui)`);
  if (opts.zuliprc) {
    const user = users.find((u) => u.email.toLowerCase() === opts.zuliprc!.toLowerCase());
    if (!user) {
      console.error(`teamchat-mock: --zuliprc: no user ${opts.zuliprc} in the fixture`);
    } else {
      writeZuliprc('zuliprc', user, server.siteUrl);
      console.log(`wrote ./zuliprc for ${user.email}`);
    }
  }
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`teamchat-mock: ${signal}, shutting down`);
    await server.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((err) => {
  console.error(`teamchat-mock: ${err?.message ?? err}`);
  process.exit(1);
});
