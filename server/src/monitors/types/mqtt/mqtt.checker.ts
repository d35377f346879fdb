import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import WebSocket, { createWebSocketStream } from 'ws';
import type { MqttCheckType, MqttProtocol } from '@vigil/proto';
import type { AddedCheckTarget, Checker, Endpoint, Observed, ProbeResult } from '../../checkers/checker';
import { describeFailure, failedProbe, ProbeFailure } from '../../checkers/failure';
import { refusedCertificate } from '../../checkers/peer-certificate';
import { openTargetSocket, TargetSocketChecker } from '../../checkers/socket';
import { Deadline, MAX_PAYLOAD_BYTES, MqttSession } from './mqtt-session';

/** The settings a check reads, as the spec validated them (defaults filled, the password in clear). */
interface MqttSettings {
  mqttProtocol: MqttProtocol;
  mqttTopic: string;
  mqttUsername?: string;
  mqttPassword?: string;
  mqttWebsocketPath?: string;
  mqttPublishMessage?: string;
  mqttCheckType: MqttCheckType;
  mqttSuccessMessage?: string;
  ignoreTls: boolean;
}

/** How much of a payload an error text quotes. */
const QUOTE_CHARS = 100;

/**
 * MQTT over TCP, TLS or WebSocket: connects (with a username and password if set), subscribes to `mqttTopic`,
 * publishes `mqttPublishMessage` to it if set, and waits for the next live message within the timeout. Its text is
 * `body` (at most 64 KiB: a larger message fails the check); `keyword` wants mqttSuccessMessage in it (Uptime Kuma's
 * rule), `json-query` wants JSON for the jsonPath assertions. The socket is opened through the outbound policy, and
 * a TLS certificate is recorded even when it is refused.
 */
export class MqttChecker extends TargetSocketChecker implements Checker<'mqtt'> {
  readonly type = 'mqtt' as const;

  endpoint(target: AddedCheckTarget<'mqtt'>): Endpoint | null {
    return target.hostname ? { host: target.hostname, port: target.port ?? 1883 } : null;
  }

  async check(target: AddedCheckTarget<'mqtt'>): Promise<ProbeResult> {
    const started = performance.now();
    const checkedAt = new Date();
    const observed: Observed = {};
    const settings = target.settings as unknown as MqttSettings;
    const deadline = new Deadline(target.timeout);
    let session: MqttSession | undefined;
    try {
      const transport = await this.open(target, settings, deadline, observed);
      session = new MqttSession(transport.stream, {
        username: settings.mqttUsername,
        password: settings.mqttPassword,
        deadline,
        destroy: transport.destroy,
      });
      await session.connect();
      await session.subscribe(settings.mqttTopic);
      const message = session.nextMessage(settings.mqttTopic);
      if (settings.mqttPublishMessage) session.publish(settings.mqttTopic, settings.mqttPublishMessage);
      const { topic, payload } = await message;
      const responseTime = Math.round(performance.now() - started);
      if (payload.length > MAX_PAYLOAD_BYTES) throw new ProbeFailure(`MQTT message larger than ${MAX_PAYLOAD_BYTES / 1024} KiB`);
      observed.body = payload.toString('utf8');
      const mismatch = judge(settings, topic, observed.body);
      if (mismatch) throw new ProbeFailure(mismatch);
      return { ok: true, statusCode: null, responseTime, error: null, checkedAt, observed };
    } catch (error) {
      return failedProbe(error, { checkedAt, observed, timeoutSeconds: target.timeout }, describeMqttFailure);
    } finally {
      session?.close();
    }
  }

  /** The byte stream MQTT runs over: the socket itself, or a WebSocket (subprotocol `mqtt`) on it. */
  private async open(
    target: AddedCheckTarget<'mqtt'>,
    settings: MqttSettings,
    deadline: Deadline,
    observed: Observed,
  ): Promise<{ stream: Duplex; destroy: () => void }> {
    const web = settings.mqttProtocol === 'ws' || settings.mqttProtocol === 'wss';
    const secure = settings.mqttProtocol === 'mqtts' || settings.mqttProtocol === 'wss';
    const port = target.port ?? 1883;
    const opened = await openTargetSocket({
      hostname: target.hostname,
      port,
      guard: this.outbound.guard(target.scope),
      tls: secure ? { alpn: web ? ['http/1.1'] : undefined, ca: this.ca } : null,
      timeoutMs: deadline.remaining(),
    });
    if (opened.certificate) observed.certificate = opened.certificate;
    const refused = refusedCertificate(opened.certificate, secure, settings.ignoreTls);
    if (refused) {
      opened.socket.destroy();
      throw new ProbeFailure(refused);
    }
    if (!web) return { stream: opened.socket, destroy: () => opened.socket.destroy() };
    const host = target.hostname.includes(':') ? `[${target.hostname}]` : target.hostname;
    const url = `${settings.mqttProtocol}://${host}:${port}${settings.mqttWebsocketPath || '/'}`;
    const socket = new WebSocket(url, 'mqtt', {
      createConnection: () => opened.socket,
      followRedirects: false,
      perMessageDeflate: false,
      // One WebSocket message carries at most a packet the session accepts, and a little framing.
      maxPayload: 2 * MAX_PAYLOAD_BYTES,
      headers: { 'user-agent': 'Vigil-Monitor/1.0' },
    });
    const destroy = () => {
      socket.terminate();
      opened.socket.destroy();
    };
    try {
      await websocketOpening(socket, deadline);
    } catch (error) {
      destroy();
      throw error;
    }
    return { stream: createWebSocketStream(socket), destroy };
  }
}

/** Why a received message does not do (null: it does), by the check type. */
function judge(settings: MqttSettings, topic: string, body: string): string | null {
  if (settings.mqttCheckType === 'json-query') {
    try {
      JSON.parse(body);
      return null;
    } catch {
      return `Message on ${topic} is not JSON: ${quote(body)}`;
    }
  }
  const keyword = settings.mqttCheckType === 'keyword' ? (settings.mqttSuccessMessage ?? '') : '';
  return body.includes(keyword) ? null : `Message on ${topic} does not contain "${quote(keyword)}": ${quote(body)}`;
}

const quote = (text: string): string => (text.length > QUOTE_CHARS ? `${text.slice(0, QUOTE_CHARS)}…` : text);

/** Resolves once the WebSocket upgrade succeeded; rejects on a refusal, an error, a close or the deadline. */
function websocketOpening(socket: WebSocket, deadline: Deadline): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new ProbeFailure(`No WebSocket upgrade within ${deadline.seconds} s`)), deadline.remaining());
    const settle = (finish: () => void) => {
      clearTimeout(timer);
      finish();
    };
    socket.once('unexpected-response', (request, response: IncomingMessage) => {
      request.destroy();
      const status = response.statusCode ?? null;
      settle(() => reject(new ProbeFailure(`Unexpected server response: ${status} (not an MQTT WebSocket endpoint)`, status)));
    });
    socket.once('open', () => settle(resolve));
    socket.once('error', (error) => settle(() => reject(error)));
    socket.once('close', (code) => settle(() => reject(new ProbeFailure(`Closed by the server before opening (code ${code})`))));
  });
}

/** mqtt.js's errors in the history's words; network failures as every socket checker names them. */
function describeMqttFailure(error: unknown, timeoutSeconds: number): string {
  const message = (error as { message?: string } | null)?.message ?? '';
  const code = (error as { code?: unknown } | null)?.code;
  if (message.startsWith('Connection refused: ')) {
    return `The broker refused the connection: ${message.slice('Connection refused: '.length).toLowerCase()}`;
  }
  if (message === 'connack timeout') return `No CONNACK within ${timeoutSeconds} s`;
  if (/Max payload size exceeded/i.test(message)) return `MQTT message larger than ${MAX_PAYLOAD_BYTES / 1024} KiB`;
  // Socket and TLS errors carry a code; mqtt.js's own (a packet that does not parse, a keepalive timeout) do not.
  if (code === undefined && message !== '' && !(error instanceof Error && error.name === 'TimeoutError')) {
    return `MQTT protocol error: ${quote(message)}`;
  }
  return describeFailure(error, timeoutSeconds);
}
