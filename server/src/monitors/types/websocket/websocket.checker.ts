import type { IncomingMessage } from 'node:http';
import WebSocket, { type RawData } from 'ws';
import { urlEndpoint } from '../../../common/outbound';
import type { Checker, CheckTarget, Endpoint, Observed, ProbeResult } from '../../checkers/checker';
import { describeFailure, failedProbe, ProbeFailure } from '../../checkers/failure';
import { refusedCertificate } from '../../checkers/peer-certificate';
import { openTargetSocket, TargetSocketChecker } from '../../checkers/socket';

/** The part of the first message kept as `body`. */
const BODY_LIMIT = 64 * 1024;
/** A larger message fails the check rather than being buffered. */
const MAX_MESSAGE_BYTES = 1024 * 1024;
/** How long a clean close (the closing handshake) may take before the socket is cut. */
const CLOSE_GRACE_MS = 1000;

/**
 * Opens a WebSocket (`ws:`/`wss:`) within the timeout. Without a message the check is up once the connection is
 * open; with one, it is sent once and the first message back is awaited: its text (first 64 KiB) is `body`, and none
 * within the timeout fails the check. The TCP/TLS connection is opened by openTargetSocket, so the outbound policy judges the
 * resolved address and the certificate is recorded even when it is refused.
 */
export class WebsocketChecker extends TargetSocketChecker implements Checker<'websocket'> {
  readonly type = 'websocket';

  endpoint(target: CheckTarget<'websocket'>): Endpoint | null {
    return urlEndpoint(target.url);
  }

  async check(target: CheckTarget<'websocket'>): Promise<ProbeResult> {
    const started = performance.now();
    const checkedAt = new Date();
    const signal = AbortSignal.timeout(target.timeout * 1000);
    const observed: Observed = {};
    let socket: WebSocket | undefined;
    let statusCode: number | null = null;
    try {
      const url = new URL(target.url);
      const secure = url.protocol === 'wss:';
      if (!secure && url.protocol !== 'ws:') throw new ProbeFailure('The URL must start with ws:// or wss://');
      const opened = await openTargetSocket({
        hostname: url.hostname,
        port: Number(url.port) || (secure ? 443 : 80),
        guard: this.outbound.guard(target.scope),
        tls: secure ? { alpn: ['http/1.1'], ca: this.ca } : null,
        timeoutMs: target.timeout * 1000,
      });
      if (opened.certificate) observed.certificate = opened.certificate;
      const refused = refusedCertificate(opened.certificate, secure, target.ignoreTls);
      if (refused) {
        opened.socket.destroy();
        throw new ProbeFailure(refused);
      }
      socket = new WebSocket(target.url, {
        createConnection: () => opened.socket,
        followRedirects: false,
        perMessageDeflate: false,
        maxPayload: MAX_MESSAGE_BYTES,
        headers: { 'user-agent': 'Vigil-Monitor/1.0' },
      });
      statusCode = await opening(socket, signal);
      if (target.message === null || target.message === '') {
        return { ok: true, statusCode, responseTime: elapsed(started), error: null, checkedAt, observed };
      }
      const answer = firstMessage(socket, signal, target.timeout);
      socket.send(target.message);
      observed.body = (await answer).slice(0, BODY_LIMIT);
      return { ok: true, statusCode, responseTime: elapsed(started), error: null, checkedAt, observed };
    } catch (error) {
      return failedProbe(error, { checkedAt, observed, statusCode, timeoutSeconds: target.timeout }, describeWebsocketFailure);
    } finally {
      if (socket) closeCleanly(socket);
    }
  }
}

/** Resolves with the upgrade's HTTP status (101) once open; rejects on a refused upgrade, an error or the timeout. */
function opening(socket: WebSocket, signal: AbortSignal): Promise<number> {
  return new Promise((resolve, reject) => {
    let status = 101;
    const abort = () => reject(signal.reason);
    signal.addEventListener('abort', abort, { once: true });
    const settle = () => signal.removeEventListener('abort', abort);
    socket.once('upgrade', (response: IncomingMessage) => (status = response.statusCode ?? 101));
    socket.once('unexpected-response', (request, response: IncomingMessage) => {
      settle();
      request.destroy();
      reject(
        new ProbeFailure(`Unexpected server response: ${response.statusCode} (not a WebSocket endpoint)`, response.statusCode ?? null),
      );
    });
    socket.once('open', () => {
      settle();
      resolve(status);
    });
    socket.once('error', (error) => {
      settle();
      reject(error);
    });
    socket.once('close', (code) => {
      settle();
      reject(new ProbeFailure(`Closed by the server before opening (code ${code})`));
    });
  });
}

/** The first message's text; rejects when the server closes first or nothing arrives within the timeout. */
function firstMessage(socket: WebSocket, signal: AbortSignal, timeoutSeconds: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const abort = () => reject(new ProbeFailure(`No message received within ${timeoutSeconds} s`));
    signal.addEventListener('abort', abort, { once: true });
    const settle = () => signal.removeEventListener('abort', abort);
    socket.once('message', (data: RawData) => {
      settle();
      resolve(textOf(data));
    });
    socket.once('error', (error) => {
      settle();
      reject(error);
    });
    socket.once('close', (code) => {
      settle();
      reject(new ProbeFailure(`Closed by the server before answering (code ${code})`));
    });
  });
}

function textOf(data: RawData): string {
  const buffer = Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data);
  return buffer.subarray(0, BODY_LIMIT).toString('utf8');
}

/** Sends a close frame and cuts the socket if the server does not answer it soon. */
function closeCleanly(socket: WebSocket): void {
  socket.on('error', () => undefined);
  if (socket.readyState === WebSocket.CLOSED) return;
  if (socket.readyState !== WebSocket.OPEN) {
    socket.terminate();
    return;
  }
  const cut = setTimeout(() => socket.terminate(), CLOSE_GRACE_MS);
  cut.unref();
  socket.once('close', () => clearTimeout(cut));
  socket.close(1000);
}

function describeWebsocketFailure(error: unknown, timeoutSeconds: number): string {
  const message = (error as { message?: string } | null)?.message ?? '';
  if (/Max payload size exceeded/i.test(message)) return `Message larger than ${MAX_MESSAGE_BYTES / 1024} KiB`;
  if (error instanceof TypeError && /Invalid URL/i.test(message)) return 'The URL is not valid';
  return describeFailure(error, timeoutSeconds);
}

function elapsed(started: number): number {
  return Math.round(performance.now() - started);
}
