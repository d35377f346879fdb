// The loopback target for `npm run bench:checker`, run as its own process (forked with an IPC channel).
// Answers every request with 200 "ok" (after argv[2] ms, default at once) over keep-alive connections and records, per monitor path `/m/<index>`,
// the arrival time of each request (epoch ms, the same clock the server schedules on).
// IPC: the parent sends {type:'arrivals'} and gets {type:'arrivals', index:[], at:[]} for every request since start,
// or {type:'stats'} for {type:'stats', requests, unknown, connections}.
import { createServer } from 'node:http';

const index = [];
const at = [];
let requests = 0;
let unknown = 0;
let connections = 0;
const delayMs = Number(process.argv[2] ?? 0);

const server = createServer((req, res) => {
  requests += 1;
  const match = /^\/m\/(\d+)$/.exec(req.url ?? '');
  if (match) {
    index.push(Number(match[1]));
    at.push(Date.now());
  } else {
    unknown += 1;
  }
  // Drain any request body, then answer with a tiny body the checker dumps.
  req.resume();
  const answer = () => res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '2' }).end('ok');
  if (delayMs > 0) setTimeout(answer, delayMs);
  else answer();
});
// Keep connections open well beyond the 60 s monitor interval, so the checker's pool never has to reconnect.
server.keepAliveTimeout = 120_000;
server.headersTimeout = 125_000;
server.requestTimeout = 0;
server.on('connection', () => {
  connections += 1;
});

server.listen(0, '127.0.0.1', () => {
  process.send({ type: 'listening', port: server.address().port });
});

process.on('message', (message) => {
  if (message?.type === 'arrivals') process.send({ type: 'arrivals', index, at });
  else if (message?.type === 'stats') process.send({ type: 'stats', requests, unknown, connections });
  else if (message?.type === 'stop') {
    server.close(() => process.exit(0));
    server.closeAllConnections();
  }
});
process.on('disconnect', () => process.exit(0));
