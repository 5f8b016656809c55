// The framework's ceiling: Express 5 with one handler answering the same bytes, etag and
// x-powered-by off (the settings the mock uses), written the way the mock writes its answers.
// With "prototypes" after the body file, the server makes its requests and responses with
// Express's prototypes, as the mock does (dist/src/http/express-objects.js), so that Express's
// per-request Object.setPrototypeOf has nothing to do: the ceiling for the way the mock runs Express.
import http from 'node:http';
import { readFileSync } from 'node:fs';
import express from 'express';

const body = readFileSync(process.argv[2]);
const prototypes = process.argv[3] === 'prototypes';
const headers = { 'Content-Type': 'application/json', 'Content-Length': body.length };
const app = express();
app.disable('etag');
app.disable('x-powered-by');
app.use((req, res) => {
  res.writeHead(200, headers);
  res.end(body);
});
const options = prototypes ? (await import('../../dist/src/http/express-objects.js')).expressObjects(app) : {};
const server = http.createServer(options, app);
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () =>
  console.log(
    `express-lean${prototypes ? ' (prototypes)' : ''} listening on http://127.0.0.1:${server.address().port}`,
  ),
);
process.on('SIGTERM', () => server.close(() => process.exit(0)));
