// The machine's ceiling: bare node:http answering fixed bytes (the mock's own subscriptions body).
import http from 'node:http';
import { readFileSync } from 'node:fs';

const body = readFileSync(process.argv[2]);
const headers = { 'Content-Type': 'application/json', 'Content-Length': body.length };
const server = http.createServer((req, res) => {
  req.resume();
  res.writeHead(200, headers);
  res.end(body);
});
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => console.log(`node:http listening on http://127.0.0.1:${server.address().port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
