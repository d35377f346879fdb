// The loopback targets of `npm run bench:checker -- --mix …`, run as their own process (forked with an IPC channel)
// so their CPU stays apart from the server's and the HTTP target's.
// argv[2]: how many TCP listeners (one per TCP monitor, on 127.0.0.1, so the port tells which monitor connected; each
// connection is accepted and closed at once). One UDP DNS server on 127.0.0.1 answers every A question for
// `m<index>.bench.test` with 127.0.0.1 (TTL 60), any other type with an empty NOERROR answer.
// argv[3], argv[4]: how many SMTP greeters and NTP responders (one per monitor, the port tells which; see
// mix-brokers.mjs); argv[5]: the run's id, non-empty when the mix has MQTT or NATS monitors (`mqtt`/`nats` in argv[6]):
// a subscriber on the machine's Mosquitto and a responder on its NATS record each monitor's message.
// Each arrival is recorded as (kind, index, epoch ms): kind 0 TCP (index = the listener's place), 1 DNS (index from
// the name), 2 SMTP and 3 NTP (the listener's place), 4 MQTT and 5 NATS (the monitor's index from the topic or subject).
// IPC: {type:'listening', tcpPorts:[], dnsPort, smtpPorts:[], ntpPorts:[]}; {type:'arrivals', kind} →
// {type:'arrivals', index:[], at:[]}; {type:'stats'} → {type:'stats', tcp, dns, unknown}; {type:'stop'}.
import { createSocket } from 'node:dgram';
import { createServer } from 'node:net';
import { listenNtp, listenSmtp, mqttSubscriber, natsResponder } from './mix-brokers.mjs';

const TCP = 0;
const DNS = 1;
const SMTP = 2;
const NTP = 3;
const MQTT = 4;
const NATS = 5;
const arrivals = Array.from({ length: 6 }, () => ({ index: [], at: [] }));
let unknown = 0;
const tcpCount = Math.max(0, Number(process.argv[2] ?? 0));
const smtpCount = Math.max(0, Number(process.argv[3] ?? 0));
const ntpCount = Math.max(0, Number(process.argv[4] ?? 0));
const runId = process.argv[5] ?? '';
const brokers = (process.argv[6] ?? '').split(',');

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
const smtpServers = [];
for (let i = 0; i < smtpCount; i += 1) smtpServers.push(await listenSmtp(() => record(SMTP, i)));
const ntpSockets = [];
for (let i = 0; i < ntpCount; i += 1) ntpSockets.push(await listenNtp(() => record(NTP, i)));
const mqtt = brokers.includes('mqtt') ? await mqttSubscriber(runId, (index) => record(MQTT, index)) : null;
const nats = brokers.includes('nats') ? await natsResponder(runId, (index) => record(NATS, index)) : null;

process.send({
  type: 'listening',
  tcpPorts: tcpServers.map((server) => server.address().port),
  dnsPort: dns.address().port,
  smtpPorts: smtpServers.map((server) => server.address().port),
  ntpPorts: ntpSockets.map((socket) => socket.address().port),
});
process.on('message', (message) => {
  if (message?.type === 'arrivals') process.send({ type: 'arrivals', ...arrivals[message.kind] });
  else if (message?.type === 'stats') {
    process.send({ type: 'stats', tcp: arrivals[TCP].at.length, dns: arrivals[DNS].at.length, unknown });
  } else if (message?.type === 'stop') {
    dns.close();
    for (const socket of ntpSockets) socket.close();
    const closing = [...tcpServers, ...smtpServers].map((server) => new Promise((resolve) => server.close(resolve)));
    Promise.all([...closing, mqtt?.close(), nats?.close()]).then(() => process.exit(0));
  }
});
process.on('disconnect', () => process.exit(0));
