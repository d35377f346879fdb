// The loopback target for `npm run bench:live`, run as its own process (forked with an IPC channel).
// Every path `/m/<index>` answers 200 "ok" until the parent flips it: {id, type:'set', index, status} makes that path
// answer `status` from now on (the reply {id, ok:true} comes once the new status is in effect). Any other path: 404.
// Keep-alive connections, tiny bodies. {id, type:'stats'} → {id, requests, byStatus, connections}; {type:'stop'} exits.
import { createServer } from 'node:http';

const statuses = new Map();
let requests = 0;
let connections = 0;
const byStatus = {};

const server = createServer((req, res) => {
  requests += 1;
  const match = /^\/m\/(\d+)$/.exec(req.url ?? '');
  const status = match ? (statuses.get(Number(match[1])) ?? 200) : 404;
  byStatus[status] = (byStatus[status] ?? 0) + 1;
  req.resume();
  res.writeHead(status, { 'content-type': 'text/plain', 'content-length': '2' });
  res.end(status === 200 ? 'ok' : 'no');
});
server.keepAliveTimeout = 120_000;
server.headersTimeout = 125_000;
server.requestTimeout = 0;
server.on('connection', () => {
  connections += 1;
});

server.listen(0, '127.0.0.1', () => {
  process.send({ type: 'ready', port: server.address().port });
});

process.on('message', (message) => {
  if (message?.type === 'set') {
    statuses.set(Number(message.index), Number(message.status));
    process.send({ id: message.id, ok: true });
  } else if (message?.type === 'stats') {
    process.send({ id: message.id, requests, byStatus, connections });
  } else if (message?.type === 'stop') {
    server.closeAllConnections();
    server.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 1000).unref();
  }
});
process.on('disconnect', () => process.exit(0));
