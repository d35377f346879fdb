import { createSocket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import { NTP_PACKET_BYTES, writeNtpTimestamp } from './ntp-packet';

/** How the fake answers; every field can be changed between checks. */
export interface NtpBehaviour {
  /** `silent`: reads requests and never answers (a timeout). */
  answer: 'normal' | 'silent';
  /** How far the fake's clock is ahead of ours, in ms (negative: behind). */
  clockOffsetMs: number;
  stratum: number;
  leap: number;
  /** The reference id's four ASCII letters (the kiss code at stratum 0); above stratum 1 an address is sent. */
  refId: string;
  rootDispersionMs: number;
  /** Sends a kiss-o'-death for some other request (a wrong originate time) before the real reply: a spoof to ignore. */
  strayFirst: boolean;
}

export interface FakeNtpServer {
  port: number;
  /** Requests received so far. */
  requests: number;
  behaviour: NtpBehaviour;
  close(): Promise<void>;
}

const SERVER_MODE = 4;

/** An NTP responder on UDP 127.0.0.1: a mode 4 reply to each mode 3 request, as `behaviour` says. */
export async function startNtpServer(behaviour: Partial<NtpBehaviour> = {}): Promise<FakeNtpServer> {
  const socket = createSocket('udp4');
  const fake: FakeNtpServer = {
    port: 0,
    requests: 0,
    behaviour: {
      answer: 'normal',
      clockOffsetMs: 0,
      stratum: 2,
      leap: 0,
      refId: 'GPS',
      rootDispersionMs: 12.5,
      strayFirst: false,
      ...behaviour,
    },
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
  socket.on('message', (request, peer) => {
    fake.requests += 1;
    const { answer, clockOffsetMs, stratum, leap, refId, rootDispersionMs, strayFirst } = fake.behaviour;
    if (answer === 'silent' || request.length < NTP_PACKET_BYTES) return;
    const reply = Buffer.alloc(NTP_PACKET_BYTES);
    reply[0] = (leap << 6) | (4 << 3) | SERVER_MODE;
    reply[1] = stratum;
    reply[2] = 6;
    reply[3] = 0xec; // precision 2^-20 s
    reply.writeUInt32BE(Math.round((rootDispersionMs / 1000) * 65_536), 8);
    if (stratum <= 1) reply.write(refId.padEnd(4, '\0').slice(0, 4), 12, 'latin1');
    else Buffer.from([127, 0, 0, 1]).copy(reply, 12);
    const clock = Date.now() + clockOffsetMs;
    writeNtpTimestamp(reply, 16, clock - 60_000);
    request.copy(reply, 24, 40, 48);
    writeNtpTimestamp(reply, 32, clock);
    writeNtpTimestamp(reply, 40, clock);
    if (strayFirst) {
      const stray = Buffer.from(reply);
      stray.fill(0x55, 24, 32);
      stray[1] = 0;
      stray.write('DENY', 12, 'latin1');
      socket.send(stray, peer.port, peer.address);
    }
    socket.send(reply, peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  fake.port = (socket.address() as AddressInfo).port;
  return fake;
}
