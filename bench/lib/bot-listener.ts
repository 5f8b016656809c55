// Bot servers for the bench: each answers every outgoing webhook call on 127.0.0.1 with
// {"response_not_required": true} (the bot posts nothing back) and counts the calls. The rows
// that measure latency use startBotServer (a child process, bench/servers/bot-listener.mjs); the
// in-process startBotListener is for scripts that hand requests to the mock in this process
// (ab-builds, allocations), whose figures include the bot server's work by design.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { ROOT } from './mock.js';
import { spawnServer } from './proc.js';

export interface BotListener {
  url: string;
  calls: () => number;
  close: () => Promise<void>;
}

export async function startBotListener(): Promise<BotListener> {
  let calls = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      calls++;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"response_not_required": true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    calls: () => calls,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** A bot server in a child process of its own; `calls` asks it how many calls it answered. */
export async function startBotServer(): Promise<{
  url: string;
  calls: () => Promise<number>;
  close: () => Promise<void>;
}> {
  const child = await spawnServer('bot server', process.execPath, [path.join(ROOT, 'bench/servers/bot-listener.mjs')], {
    cwd: ROOT,
  });
  return {
    url: `${child.url}/`,
    calls: async () => Number(await (await fetch(`${child.url}/calls`)).text()),
    close: async () => {
      await child.stop();
    },
  };
}
