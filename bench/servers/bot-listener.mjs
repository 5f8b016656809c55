// A bot server for the bench's webhook rows, in a process of its own as every server under test
// (bench/lib/proc.ts): in the driver it would share the load generator's event loop, and the
// sender's latency would include the time the driver spent answering the bot's calls. Answers
// every outgoing webhook call with {"response_not_required": true} (the bot posts nothing back);
// GET /calls answers how many calls it has answered.
import http from 'node:http';

let calls = 0;
const server = http.createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/calls') {
    res.end(String(calls));
    return;
  }
  req.resume();
  req.on('end', () => {
    calls++;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"response_not_required": true}');
  });
});
server.listen(0, '127.0.0.1', () => console.log(`listening on http://127.0.0.1:${server.address().port}`));
