#!/usr/bin/env node
// Command-line entry: parse flags, start the server, print where it listens and who can log in,
// shut down cleanly on SIGINT/SIGTERM.
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import { Command, InvalidArgumentError, Option } from 'commander';
import { MockServer } from './server.js';
import { FixtureError } from './store/fixture.js';
import { usersTable, writeCertificate, writeZuliprc } from './cli-output.js';
import type { TlsCertificate } from './http/tls.js';
import { LOG_FORMATS, requestLogger, type LogFormat } from './request-log.js';
import { listenFailure } from './cli-errors.js';
import { verifyCommand } from './verify/command.js';
import { DEFAULT_SERVER_UPLOAD_SPACE_MIB, DEFAULT_UPLOAD_SPACE_MIB, type RemoteServer } from './domain/server-info.js';
import { recordToFixtureCommand } from './record/command.js';

function port(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('a port number from 0 to 65535');
  return n;
}

function absoluteUrl(v: string): string {
  try {
    return new URL(v).href.replace(/\/+$/, '');
  } catch {
    throw new InvalidArgumentError('an absolute URL, e.g. https://cloud.example.com');
  }
}

function remoteServer(v: string, all: RemoteServer[]): RemoteServer[] {
  const [uuid, apiKey, orgs] = v.split(':');
  if (!uuid || !apiKey || !orgs)
    throw new InvalidArgumentError('<server uuid>:<api key>:<organization uuid>[,<organization uuid>...]');
  return [...all, { uuid, apiKey, realmUuids: orgs.split(',').filter(Boolean) }];
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
  .option(
    '--longpoll-timeout <seconds>',
    'seconds a GET /events waits before a heartbeat (default: 45-55, as the real server)',
    (v: string) => {
      const n = Number(v);
      if (!Number.isFinite(n) || n <= 0) throw new InvalidArgumentError('a positive number of seconds');
      return n;
    },
  )
  .option('--durable', 'with --data: answer a request only once its changes are on disk', false)
  .option(
    '--public-url <url>',
    'the site clients use when it is not the listening address (realm_url, zuliprc)',
    (v: string) => {
      try {
        return new URL(v).href.replace(/\/+$/, '');
      } catch {
        throw new InvalidArgumentError('an absolute URL, e.g. https://chat.example.com');
      }
    },
  )
  .option('--tls-cert <file>', "serve HTTPS with this certificate (PEM; a chain: the server's first); needs --tls-key")
  .option('--tls-key <file>', 'the private key (PEM) of --tls-cert')
  .option(
    '--https',
    "serve HTTPS with a self-signed certificate made at start for localhost, 127.0.0.1, ::1, --host and --public-url's host, written to ./teamchat-mock-cert.pem (key: ./teamchat-mock-key.pem, owner only)",
    false,
  )
  .option(
    '--rate-limit',
    "refuse with 429, as the real server's default limits do (mock clock): a user's requests past 200 a minute, password logins past 5 attempts per user name in 30 minutes, own email changes past 2 an hour or 5 a day",
    false,
  )
  .option(
    '--production',
    'answer as a production server where the real development server differs (password strength, dev login, web-public channels, embedded bots, who may invite, topic summaries, resolve-topic undo; see docs/production-mode.md)',
    false,
  )
  .option(
    '--no-dev-login',
    'refuse POST /dev_fetch_api_key and GET /dev_list_users as a production server does (that rule of --production alone)',
  )
  .option('--strict-responses', 'answer 500 when a response breaks the OpenAPI description', false)
  .option('--no-validate-responses', 'do not check responses against the description (to measure what the check costs)')
  .option('--no-answer-cache', 'build every answer to a read anew (to measure what reusing them saves)')
  .option('--zuliprc <email>', 'write a zuliprc file for this fixture user into the current folder')
  .option(
    '--scenario <name|file>',
    'activate a scenario from the start (repeatable)',
    (v: string, all: string[]) => [...all, v],
    [] as string[],
  )
  .option(
    '--proxy <url>',
    'send what no scenario answers to this server and check its answers against the description',
    (v: string) => {
      try {
        return new URL(v).href.replace(/\/+$/, '');
      } catch {
        throw new InvalidArgumentError('an absolute URL, e.g. https://chat.example.com');
      }
    },
  )
  .option(
    '--proxy-only <operationIds>',
    'with --proxy: only these operations (comma list) go upstream; the mock answers the rest',
    (v: string) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
  )
  .option(
    '--record <dir>',
    'with --proxy: append the upstream exchanges to a replayable recording (JSON Lines) in this folder, which must be your own',
  )
  .option(
    '--control-token <token>',
    'token the /__mock control API requires (header X-Mock-Token); needed when --host is not loopback',
  )
  .option(
    '--coverage-report <file>',
    'write what the requests exercised to this file at shutdown (HTML when it ends in .html, else JSON)',
  )
  // Running it as a dev server: browser clients, how much it prints and in which form.
  .option(
    '--cors <origin>',
    'let a browser page from this origin call the API (not the control API); repeatable',
    (v: string, all: string[]) => [...all, v],
    [] as string[],
  )
  .option(
    '--allowed-host <name>',
    'answer requests whose Host is this name too (besides the listening address); ".name" allows its subdomains; repeatable',
    (v: string, all: string[]) => [...all, v],
    [] as string[],
  )
  .option(
    '--max-sandboxes <n>',
    'at most this many sandboxes at once (past it, sandboxes idle for 30 minutes are dropped, else a new one is refused; 0: no sandboxes)',
    (v: string) => {
      if (!/^\d+$/.test(v)) throw new InvalidArgumentError('a whole number');
      return Number(v);
    },
  )
  .option(
    '--max-upload-space-mib <n>',
    `at most this many MiB of uploaded files per world (default ${DEFAULT_UPLOAD_SPACE_MIB}); past it an upload gets the quota error`,
    (v: string) => {
      if (!/^\d+$/.test(v)) throw new InvalidArgumentError('a whole number of MiB');
      return Number(v);
    },
  )
  .option(
    '--max-total-upload-space-mib <n>',
    `at most this many MiB of uploaded files in all worlds together, sandboxes included (default ${DEFAULT_SERVER_UPLOAD_SPACE_MIB}); past it an upload gets the quota error`,
    (v: string) => {
      if (!/^\d+$/.test(v)) throw new InvalidArgumentError('a whole number of MiB');
      return Number(v);
    },
  )
  .option(
    '--allow-outgoing <host>',
    'let outgoing webhook bots post to this host too (by default only to loopback addresses); repeatable',
    (v: string, all: string[]) => [...all, v],
    [] as string[],
  )
  .option(
    '--outgoing-timeout-ms <n>',
    'deadline of one outgoing webhook try, in ms (default 10000, as the real server)',
    (v: string) => {
      if (!/^\d+$/.test(v) || Number(v) < 1) throw new InvalidArgumentError('a positive whole number of milliseconds');
      return Number(v);
    },
  )
  // Settings of the real server's configuration file. The mock never contacts these services.
  .option(
    '--nextcloud-server <url>',
    'answer POST /calls/nextcloud_talk/create as a server with this Nextcloud (links <url>/index.php/call/<token>); default: not configured',
    absoluteUrl,
  )
  .option(
    '--webex-site <url>',
    'answer POST /calls/webex/create as a server with Webex configured and every user authorized (links on this Webex site); default: not configured',
    absoluteUrl,
  )
  .option(
    '--constructor-groups-url <url>',
    'answer POST /calls/constructorgroups/create as a server with this Constructor Groups service; default: not configured',
    absoluteUrl,
  )
  .option(
    '--remote-server <uuid:key:orgs>',
    'act as push bouncer for this remote server: its UUID, API key and comma-separated organization UUIDs (POST /remotes/push/e2ee/register); repeatable',
    remoteServer,
    [] as RemoteServer[],
  )
  .option(
    '--jwt-key <key>',
    'accept JWTs signed with this key (HS256) at POST /jwt/fetch_api_key; default: JWT login not configured',
  )
  .option(
    '--push-target <url>',
    'POST every push notification the mock would send to this URL as JSON (a loopback address unless allowed below)',
  )
  .option(
    '--allow-push-target-host <name>',
    'let --push-target name this host, not only loopback addresses; repeatable',
    (v: string, all: string[]) => [...all, v.toLowerCase()],
    [] as string[],
  )
  .option('--quiet', 'print only the address it listens on (and errors): no table, no request log', false)
  .addOption(
    new Option('--log-format <format>', 'request log: one line per request, as text or JSON')
      .choices(LOG_FORMATS)
      .default('text'),
  )
  // A usage error is one line, not the help text: a script's log shows what went wrong.
  .configureOutput({
    outputError: (text, write) =>
      write(
        `teamchat-mock: ${text
          .replace(/^error: /, '')
          .trim()
          .replace(/\s*\n\s*/g, ' ')} (see --help)\n`,
      ),
  });

/**
 * On two cores or fewer, minor collections run on the main thread alone. V8 copies a scavenge's
 * survivors with helper threads and the main thread waits for them; a mock under load shares
 * its cores with its client (a test suite, a load generator), so a helper often waits for a core
 * and the whole server with it. On the bench's 2-core machine, a scavenge every ~600 requests
 * took 1.8-2.4 ms (median) either way, but with helpers the longest pauses of a 5 s run reached
 * 10-150 ms, alone 3-18. Where cores are spare the helpers shorten the pause, and stay.
 */
function scavengeAloneOnFewCores(): void {
  if (availableParallelism() <= 2) v8.setFlagsFromString('--no-parallel-scavenge');
}

async function main(): Promise<void> {
  scavengeAloneOnFewCores();
  const opts = program.opts<{
    port: number;
    host: string;
    fixture?: string;
    data?: string;
    durable: boolean;
    strictResponses: boolean;
    validateResponses: boolean;
    answerCache: boolean;
    zuliprc?: string;
    scenario: string[];
    controlToken?: string;
    featureLevel?: number;
    longpollTimeout?: number;
    rateLimit: boolean;
    publicUrl?: string;
    coverageReport?: string;
    production: boolean;
    devLogin: boolean;
    cors: string[];
    quiet: boolean;
    logFormat: LogFormat;
    proxy?: string;
    proxyOnly?: string[];
    allowedHost: string[];
    allowOutgoing: string[];
    outgoingTimeoutMs?: number;
    maxSandboxes?: number;
    maxUploadSpaceMib?: number;
    maxTotalUploadSpaceMib?: number;
    record?: string;
    nextcloudServer?: string;
    webexSite?: string;
    constructorGroupsUrl?: string;
    jwtKey?: string;
    remoteServer: RemoteServer[];
    pushTarget?: string;
    allowPushTargetHost: string[];
    tlsCert?: string;
    tlsKey?: string;
    https: boolean;
  }>();
  if (opts.proxyOnly && !opts.proxy) fail('--proxy-only needs --proxy');
  if (opts.record && !opts.proxy) fail('--record needs --proxy');
  if (!opts.tlsCert !== !opts.tlsKey) fail(opts.tlsCert ? '--tls-cert needs --tls-key' : '--tls-key needs --tls-cert');
  if (opts.https && opts.tlsCert)
    fail('--https makes its own certificate: give either --https or --tls-cert and --tls-key');
  const tls = opts.tlsCert ? readTls(opts.tlsCert, opts.tlsKey!) : undefined;
  if (opts.fixture && !existsSync(opts.fixture)) fail(`fixture file ${path.resolve(opts.fixture)} does not exist`);
  let server: MockServer;
  try {
    server = new MockServer({
      fixture: opts.fixture,
      data: opts.data,
      durable: opts.durable,
      strictResponses: opts.strictResponses,
      validateResponses: opts.validateResponses,
      answerCache: opts.answerCache,
      scenarios: opts.scenario,
      controlToken: opts.controlToken,
      featureLevel: opts.featureLevel,
      coverageReport: opts.coverageReport,
      longpollTimeoutSeconds: opts.longpollTimeout,
      rateLimit: opts.rateLimit,
      publicUrl: opts.publicUrl,
      production: opts.production,
      devLogin: opts.devLogin,
      cors: opts.cors,
      allowedHosts: opts.allowedHost,
      allowOutgoing: opts.allowOutgoing,
      outgoingTimeoutMs: opts.outgoingTimeoutMs,
      maxSandboxes: opts.maxSandboxes,
      maxUploadSpaceBytes: opts.maxUploadSpaceMib === undefined ? undefined : opts.maxUploadSpaceMib * 1024 * 1024,
      maxTotalUploadSpaceBytes:
        opts.maxTotalUploadSpaceMib === undefined ? undefined : opts.maxTotalUploadSpaceMib * 1024 * 1024,
      proxy: opts.proxy,
      proxyOnly: opts.proxyOnly,
      record: opts.record,
      tls,
      https: opts.https,
      services: {
        nextcloudServer: opts.nextcloudServer,
        webexSite: opts.webexSite,
        constructorGroupsUrl: opts.constructorGroupsUrl,
        jwtKey: opts.jwtKey,
        remoteServers: opts.remoteServer,
      },
      pushTarget: opts.pushTarget,
      pushTargetHosts: opts.allowPushTargetHost,
      onRequest: opts.quiet ? undefined : requestLogger(opts.logFormat, (line) => console.log(line)),
    });
  } catch (err) {
    if (err instanceof FixtureError) fail(err.message);
    if ((err as Error).message.startsWith('--push-target')) fail((err as Error).message);
    throw err;
  }
  let base: string;
  try {
    base = await server.listen(opts.port, opts.host);
  } catch (err) {
    fail(
      err instanceof Error && /^the TLS /.test(err.message)
        ? `--tls-cert/--tls-key: ${err.message}`
        : listenFailure(err, opts.port, opts.host),
    );
  }
  const users = server.world.store.users.all();
  const level = server.server.featureLevel;
  // JSON logs stay JSON from the first line: the address is a line of its own kind.
  if (opts.logFormat === 'json')
    console.log(
      JSON.stringify({
        event: 'listening',
        url: base,
        api: `${base}/api/v1`,
        feature_level: level,
        control: `${base}/__mock`,
      }),
    );
  else console.log(`teamchat-mock listening on ${base} (API at ${base}/api/v1, feature level ${level})`);
  const info = opts.quiet || opts.logFormat === 'json' ? () => {} : (line: string) => console.log(line);
  info(`fixture: ${server.fixturePath ?? '(in memory)'}${opts.data ? `, data: ${opts.data}` : ''}`);
  info(usersTable(users));
  const active = server.world.parts.scenarios.active.map((a) => a.scenario.name);
  if (active.length) info(`scenarios active: ${active.join(', ')}`);
  if (opts.proxy)
    info(
      `proxy: what no scenario answers goes to ${opts.proxy}${opts.proxyOnly ? ` (only ${opts.proxyOnly.join(', ')})` : ''}`,
    );
  if (server.recordingFile)
    info(`recording the upstream exchanges into ${server.recordingFile} (replay it with --scenario)`);
  if (opts.cors.length) info(`CORS: the API answers pages from ${opts.cors.join(', ')}`);
  const certificate = server.certificate;
  if (certificate && opts.https) {
    const files = writeCertificate(certificate);
    info(
      `HTTPS with a self-signed certificate for ${certificate.names.join(', ')}: ${files.cert} (trust it as a CA in your client; key: ${files.key})`,
    );
  }
  // The fingerprint even with --quiet: a device's user compares it with what the device shows.
  if (certificate) console.log(`TLS certificate SHA-256 fingerprint: ${certificate.fingerprint}`);
  info(`control API: ${base}/__mock (inspector: ${base}/__mock/ui)`);
  if (opts.zuliprc) {
    const user = users.find((u) => u.email.toLowerCase() === opts.zuliprc!.toLowerCase());
    if (!user) {
      console.error(`teamchat-mock: --zuliprc: no user ${opts.zuliprc} in the fixture`);
    } else {
      writeZuliprc('zuliprc', user, server.siteUrl);
      info(`wrote ./zuliprc for ${user.email}`);
    }
  }
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    info(`teamchat-mock: ${signal}, shutting down`);
    await server.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

/** The PEM files of --tls-cert and --tls-key (an unreadable one is a start-up error of one line). */
function readTls(certFile: string, keyFile: string): TlsCertificate {
  const read = (flag: string, file: string) => {
    try {
      return readFileSync(file, 'utf8');
    } catch (err) {
      fail(
        `${flag}: cannot read ${path.resolve(file)} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
      );
    }
  };
  return { cert: read('--tls-cert', certFile), key: read('--tls-key', keyFile) };
}

/** Ends the process with one line on stderr and exit code 1. */
function fail(message: string): never {
  console.error(`teamchat-mock: ${message}`);
  process.exit(1);
}

// Subcommands (verify, record-to-fixture) take their own options: the server's are read only before a subcommand's name.
program.enablePositionalOptions().addCommand(verifyCommand(fail)).addCommand(recordToFixtureCommand(fail)).action(main);
program.parseAsync().catch((err) => fail(err?.message ?? String(err)));
