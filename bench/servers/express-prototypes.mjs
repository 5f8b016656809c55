// A reference beside the Express lean: the same one handler, on a server that makes its
// requests and responses with Express's prototypes (as the mock does, dist/src/http/express-objects.js),
// so that Express's per-request Object.setPrototypeOf has nothing to do.
import http from 'node:http';
import { readFileSync } from 'node:fs';
import express from 'express';
import { expressObjects } from '../../dist/src/http/express-objects.js';

const body = readFileSync(process.argv[2]);
const headers = { 'Content-Type': 'application/json', 'Content-Length': body.length };
const app = express();
app.disable('etag');
app.disable('x-powered-by');
app.use((req, res) => {
  res.writeHead(200, headers);
  res.end(body);
});
const server = http.createServer(expressObjects(app), app);
server.keepAliveTimeout = 65_000;
server.listen(0, '127.0.0.1', () => console.log(`express-prototypes listening on http://127.0.0.1:${server.address().port}`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
