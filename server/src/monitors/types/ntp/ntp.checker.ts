import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { resolveAllowed, type OutboundGuards } from '../../../common/outbound';
import type { AddedCheckTarget, Checker, Endpoint, ProbeResult } from '../../checkers/checker';
import { describeFailure, failedProbe, ProbeFailure, timeoutError } from '../../checkers/failure';
import { withinTimeout } from '../../checkers/socket';
import { clockOffset, KISS_CODES, ntpRequest, readNtpReply, type NtpReply } from './ntp-packet';

export const NTP_DEFAULT_PORT = 123;
/** Stratum 16 means "unsynchronised" (RFC 5905 7.3). */
const STRATUM_UNSYNCHRONISED = 16;

/**
 * NTP checks: one SNTP request (RFC 4330, mode 3) over UDP to the server's address as the outbound policy allows it,
 * and its mode 4 reply within the timeout. The `offset` source is how far our clock is from the server's either way
 * (its absolute value, in ms, so `offset lt 100` bounds both directions as Kuma's threshold does), `stratum` and
 * `rootDispersion` (ms) are as the server says. A kiss-o'-death (stratum 0) or an unsynchronised server (leap
 * indicator 3, stratum 16) fails the check with its reason. Replies are matched by our random transmit timestamp,
 * so a stray or spoofed datagram is ignored.
 */
export class NtpChecker implements Checker<'ntp'> {
  readonly type = 'ntp' as const;

  constructor(private readonly deps: { outbound: OutboundGuards }) {}

  endpoint(target: AddedCheckTarget<'ntp'>): Endpoint | null {
    return target.hostname ? { host: target.hostname, port: target.port ?? NTP_DEFAULT_PORT } : null;
  }

  async check(target: AddedCheckTarget<'ntp'>): Promise<ProbeResult> {
    const checkedAt = new Date();
    const timeoutMs = target.timeout * 1000;
    const port = target.port ?? NTP_DEFAULT_PORT;
    try {
      const { address } = await withinTimeout(resolveAllowed(target.hostname, this.deps.outbound.guard(target.scope), port), timeoutMs);
      const { reply, sent, arrived } = await ask(address, port, Math.max(0, timeoutMs - (Date.now() - checkedAt.getTime())));
      const { offset, delay } = clockOffset(sent, reply, arrived);
      const observed = {
        metrics: { offset: round(Math.abs(offset)), stratum: reply.stratum, rootDispersion: round(reply.rootDispersion) },
      };
      const responseTime = Math.max(0, Math.round(delay));
      return { ok: true, statusCode: null, responseTime, error: null, checkedAt, observed };
    } catch (error) {
      return failedProbe(error, { checkedAt, observed: {}, timeoutSeconds: target.timeout }, describeNtpFailure);
    }
  }
}

/** Sends one request to `address`:`port` and waits for its reply; a socket per check, closed at the end. */
function ask(address: string, port: number, timeoutMs: number): Promise<{ reply: NtpReply; sent: number; arrived: number }> {
  return new Promise((resolve, reject) => {
    const socket: UdpSocket = createSocket(address.includes(':') ? 'udp6' : 'udp4');
    const { packet, nonce } = ntpRequest();
    // Wall-clock milliseconds at sending (the offset is against our system clock), and a monotonic mark for the delay.
    let sent = 0;
    let sentMark = 0;
    let done = false;
    const finish = (error: unknown, result?: { reply: NtpReply; sent: number; arrived: number }) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.removeAllListeners('message');
      socket.on('error', () => undefined);
      socket.close();
      if (result) resolve(result);
      else reject(error);
    };
    const timer = setTimeout(() => finish(timeoutError()), timeoutMs);
    socket.on('message', (message: Buffer) => {
      const arrived = sent + (performance.now() - sentMark);
      const reply = readNtpReply(message, nonce);
      if (!reply) return;
      try {
        judge(reply);
        finish(null, { reply, sent, arrived });
      } catch (error) {
        finish(error);
      }
    });
    // A connected socket hears the ICMP "port unreachable" as ECONNREFUSED and takes datagrams from the server only.
    socket.on('error', (error) => finish(error));
    socket.connect(port, address, () => {
      if (done) return;
      sent = Date.now();
      sentMark = performance.now();
      socket.send(packet, (error) => error && finish(error));
    });
  });
}

/** Fails on a reply that says the server's time is not to be used. */
function judge(reply: NtpReply): void {
  if (reply.stratum === 0) {
    const reason = KISS_CODES[reply.refId];
    throw new ProbeFailure(`NTP kiss-o'-death: ${reply.refId || 'no code'}${reason ? ` (${reason})` : ''}`);
  }
  if (reply.leap === 3 || reply.stratum >= STRATUM_UNSYNCHRONISED) {
    throw new ProbeFailure(`The NTP server is not synchronised (leap indicator ${reply.leap}, stratum ${reply.stratum})`);
  }
  if (reply.transmitted === 0) throw new ProbeFailure('The NTP reply carries no transmit time');
}

const round = (ms: number) => Math.round(ms * 1000) / 1000;

function describeNtpFailure(error: unknown, timeoutSeconds: number): string {
  if ((error as { code?: string }).code === 'ECONNREFUSED') return 'No NTP server answers on this port (port unreachable)';
  return describeFailure(error, timeoutSeconds);
}
