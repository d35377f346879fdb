// The mix target's pieces for the issue 33 types: an SMTP greeter and an NTP responder per monitor (cheap, so many
// fit), and, on the machine's own brokers, an MQTT subscriber and a NATS responder that see each monitor's message.
// Each calls `arrived` (with the monitor's index where the message names it) when a check reaches it.
import { createSocket } from 'node:dgram';
import { createServer } from 'node:net';
import { connectAsync } from 'mqtt';
import { connect } from 'nats';

/** What the greeter buffers of one client's unfinished line: an SMTP command line is at most 512 bytes (RFC 5321). */
const SMTP_LINE_CAP = 1024;
const NTP_PACKET_BYTES = 48;
const NTP_EPOCH_OFFSET_S = 2_208_988_800;
export const MQTT_URL = 'mqtt://127.0.0.1:1883';
export const NATS_SERVER = '127.0.0.1:4222';

/** The topic and subject of monitor `index` in run `runId` (also what the bench's monitors are created with). */
export const mqttTopic = (runId, index) => `vigil-bench/${runId}/m${index}`;
export const natsSubject = (runId, index) => `vigil.bench.${runId}.m${index}`;

/** A plaintext SMTP server that greets, answers EHLO/HELO with two extensions and QUIT with 221; nothing else. */
export function listenSmtp(arrived) {
  const server = createServer((socket) => {
    arrived();
    let pending = '';
    socket.on('error', () => {});
    socket.setEncoding('latin1');
    socket.write('220 bench.test ESMTP bench\r\n');
    socket.on('data', (chunk) => {
      pending += chunk;
      if (pending.length > SMTP_LINE_CAP) return socket.destroy();
      let end;
      while ((end = pending.indexOf('\r\n')) >= 0) {
        const verb = pending.slice(0, end).split(' ')[0].toUpperCase();
        pending = pending.slice(end + 2);
        if (verb === 'EHLO' || verb === 'HELO') socket.write('250-bench.test\r\n250-SIZE 1000000\r\n250 8BITMIME\r\n');
        else if (verb === 'QUIT') return socket.end('221 bye\r\n');
        else socket.write('502 not here\r\n');
      }
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', 1024, () => resolve(server)));
}

function writeNtpTimestamp(packet, at, ms) {
  packet.writeUInt32BE(Math.floor(ms / 1000) + NTP_EPOCH_OFFSET_S, at);
  packet.writeUInt32BE(Math.floor(((ms % 1000) / 1000) * 2 ** 32), at + 4);
}

/** A UDP NTP server (stratum 2, our own clock): a mode 4 reply to each mode 3 request, its nonce copied back. */
export function listenNtp(arrived) {
  const socket = createSocket('udp4');
  socket.on('message', (request, peer) => {
    if (request.length < NTP_PACKET_BYTES || (request[0] & 0x07) !== 3) return;
    arrived();
    const reply = Buffer.alloc(NTP_PACKET_BYTES);
    reply[0] = (4 << 3) | 4;
    reply[1] = 2;
    reply[2] = 6;
    reply[3] = 0xec;
    reply.writeUInt32BE(Math.round(0.01 * 65_536), 8);
    Buffer.from([127, 0, 0, 1]).copy(reply, 12);
    const now = Date.now();
    writeNtpTimestamp(reply, 16, now - 60_000);
    request.copy(reply, 24, 40, 48);
    writeNtpTimestamp(reply, 32, now);
    writeNtpTimestamp(reply, 40, now);
    socket.send(reply, peer.port, peer.address);
  });
  return new Promise((resolve) => socket.bind(0, '127.0.0.1', () => resolve(socket)));
}

/** Subscribed to every bench monitor's topic on Mosquitto: a message arrives once a check has published it. */
export async function mqttSubscriber(runId, arrived) {
  const client = await connectAsync(MQTT_URL, { clientId: `vigil-bench-target-${runId}`, clean: true, connectTimeout: 10_000 });
  const prefix = `vigil-bench/${runId}/m`;
  client.on('message', (topic) => {
    if (topic.startsWith(prefix)) arrived(Number(topic.slice(prefix.length)));
  });
  await client.subscribeAsync(`vigil-bench/${runId}/#`, { qos: 0 });
  return { close: () => client.endAsync() };
}

/** Answers every bench monitor's request on NATS with `ok`. */
export async function natsResponder(runId, arrived) {
  const connection = await connect({ servers: NATS_SERVER, timeout: 10_000 });
  const prefix = `vigil.bench.${runId}.m`;
  connection.subscribe(`vigil.bench.${runId}.*`, {
    callback: (error, message) => {
      if (error) return;
      arrived(Number(message.subject.slice(prefix.length)));
      message.respond(new TextEncoder().encode('ok'));
    },
  });
  await connection.flush();
  return { close: () => connection.close() };
}
