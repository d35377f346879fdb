// The loopback TCP and DNS targets of `npm run bench:checker -- --mix …`, run as their own process (forked with an
// IPC channel) so their CPU stays apart from the server's and the HTTP target's.
// argv[2]: how many TCP listeners (one per TCP monitor, on 127.0.0.1, so the port tells which monitor connected; each
// connection is accepted and closed at once). One UDP DNS server on 127.0.0.1 answers every A question for
// `m<index>.bench.test` with 127.0.0.1 (TTL 60), any other type with an empty NOERROR answer.
// Each arrival is recorded as (kind, index, epoch ms): kind 0 TCP (index = the listener's place), 1 DNS (index from
// the name). IPC: {type:'listening', tcpPorts:[], dnsPort}; {type:'arrivals', kind} → {type:'arrivals', index:[], at:[]};
// {type:'stats'} → {type:'stats', tcp, dns, unknown}; {type:'stop'}.
import { createSocket } from 'node:dgram';
import { createServer } from 'node:net';

const TCP = 0;
const DNS = 1;
const arrivals = [
  { index: [], at: [] },
  { index: [], at: [] },
];
let unknown = 0;
const tcpCount = Math.max(0, Number(process.argv[2] ?? 0));

function record(kind, index) {
  arrivals[kind].index.push(index);
  arrivals[kind].at.push(Date.now());
}

function listenTcp(index) {
  const server = createServer((socket) => {
    record(TCP, index);
    socket.on('error', () => {});
    socket.destroy();
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', 1024, () => resolve(server)));
}

/** The question's name (lowercase) and where the question ends, or null when the packet is not one question. */
function question(packet) {
  if (packet.length < 12 || packet.readUInt16BE(4) !== 1) return null;
  const labels = [];
  let at = 12;
  while (at < packet.length) {
    const length = packet[at];
    if (length === 0) break;
    if (length > 63 || at + 1 + length > packet.length) return null;
    labels.push(packet.toString('latin1', at + 1, at + 1 + length));
    at += 1 + length;
  }
  if (at + 5 > packet.length) return null;
  return { name: labels.join('.').toLowerCase(), type: packet.readUInt16BE(at + 1), end: at + 5 };
}

function answer(packet, q) {
  const head = Buffer.alloc(12);
  packet.copy(head, 0, 0, 2);
  const isA = q.type === 1;
  // QR, the request's RD, RA; NOERROR.
  head.writeUInt16BE(0x8080 | ((packet[2] & 0x01) << 8), 2);
  head.writeUInt16BE(1, 4);
  head.writeUInt16BE(isA ? 1 : 0, 6);
  const body = packet.subarray(12, q.end);
  if (!isA) return Buffer.concat([head, body]);
  const record = Buffer.from([0xc0, 0x0c, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4, 127, 0, 0, 1]);
  return Buffer.concat([head, body, record]);
}

const tcpServers = [];
for (let i = 0; i < tcpCount; i += 1) tcpServers.push(await listenTcp(i));
const dns = createSocket('udp4');
dns.on('message', (packet, from) => {
  const q = question(packet);
  const match = q && /^m(\d+)\.bench\.test$/.exec(q.name);
  if (!match) {
    unknown += 1;
    if (!q) return;
  } else {
    record(DNS, Number(match[1]));
  }
  dns.send(answer(packet, q), from.port, from.address);
});
await new Promise((resolve) => dns.bind(0, '127.0.0.1', resolve));

process.send({ type: 'listening', tcpPorts: tcpServers.map((server) => server.address().port), dnsPort: dns.address().port });
process.on('message', (message) => {
  if (message?.type === 'arrivals') process.send({ type: 'arrivals', ...arrivals[message.kind] });
  else if (message?.type === 'stats') {
    process.send({ type: 'stats', tcp: arrivals[TCP].at.length, dns: arrivals[DNS].at.length, unknown });
  } else if (message?.type === 'stop') {
    dns.close();
    Promise.all(tcpServers.map((server) => new Promise((resolve) => server.close(resolve)))).then(() => process.exit(0));
  }
});
process.on('disconnect', () => process.exit(0));
