// A bot server for the bench: answers every outgoing webhook call on 127.0.0.1 with
// {"response_not_required": true} (the bot posts nothing back) and counts the calls.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

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
