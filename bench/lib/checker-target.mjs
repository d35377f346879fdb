// The loopback target for `npm run bench:checker`, run as its own process (forked with an IPC channel).
// Listens on argv[3] ports (default 1; each port is an origin of its own to the checker, with its own connection pool),
// answers every request with 200 "ok" (after argv[2] ms, default at once) over keep-alive connections and records, per
// monitor path `/m/<index>`, the arrival time of each request (epoch ms, the same clock the server schedules on).
// IPC: it sends {type:'listening', ports:[]} once every port listens; the parent sends {type:'arrivals'} and gets
// {type:'arrivals', index:[], at:[]} for every request since start, or {type:'stats'} for {type:'stats', requests,
// unknown, connections}.
import { createServer } from 'node:http';

const index = [];
const at = [];
let requests = 0;
let unknown = 0;
let connections = 0;
const delayMs = Number(process.argv[2] ?? 0);
const origins = Math.max(1, Number(process.argv[3] ?? 1));

function respond(req, res) {
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
}

function listen() {
  const server = createServer(respond);
  // Keep connections open well beyond the 60 s monitor interval, so the checker's pool never has to reconnect.
  server.keepAliveTimeout = 120_000;
  server.headersTimeout = 125_000;
  server.requestTimeout = 0;
  server.on('connection', () => {
    connections += 1;
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

const servers = [];
for (let i = 0; i < origins; i += 1) servers.push(await listen());
process.send({ type: 'listening', ports: servers.map((server) => server.address().port) });

process.on('message', (message) => {
  if (message?.type === 'arrivals') process.send({ type: 'arrivals', index, at });
  else if (message?.type === 'stats') process.send({ type: 'stats', requests, unknown, connections });
  else if (message?.type === 'stop') {
    const closed = servers.map((server) => {
      const done = new Promise((resolve) => server.close(resolve));
      server.closeAllConnections();
      return done;
    });
    Promise.all(closed).then(() => process.exit(0));
  }
});
process.on('disconnect', () => process.exit(0));
