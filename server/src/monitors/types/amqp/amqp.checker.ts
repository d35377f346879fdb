import type { Socket } from 'node:net';
import { isIP } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { connect, type ChannelModel } from 'amqplib';
import { socketLookup } from '../../../common/outbound';
import type { AddedCheckTarget, Checker, Endpoint, Observed, ProbeResult } from '../../checkers/checker';
import { describeFailure, failedProbe, ProbeFailure } from '../../checkers/failure';
import { describeCertificateCode, peerCertificateOf } from '../../checkers/peer-certificate';
import { TargetSocketChecker, withinTimeout } from '../../checkers/socket';

export const AMQP_DEFAULT_PORT = 5672;
/** The largest frame a broker may send us: queue replies and server properties are small (RabbitMQ's own default). */
const MAX_FRAME_BYTES = 128 * 1024;
/** How long a polite `Connection.Close` may take before the socket is simply destroyed. */
const CLOSE_GRACE_MS = 1000;

/** The settings the `amqp` spec validated (proto/src/type-specs/amqp.ts), defaults filled. */
interface AmqpSettings {
  amqpUsername?: string;
  amqpPassword?: string;
  amqpVhost: string;
  amqpQueue?: string;
  amqpTls: boolean;
  ignoreTls: boolean;
}

/**
 * AMQP 0-9-1 (RabbitMQ): opens a connection with the monitor's credentials and vhost; with a queue, declares it
 * passively on a channel (nothing is created) and reports its ready messages and consumers. One connection per check,
 * closed at the end; the whole check is bounded by the monitor's timeout.
 */
export class AmqpChecker extends TargetSocketChecker implements Checker<'amqp'> {
  readonly type = 'amqp' as const;

  endpoint(target: AddedCheckTarget<'amqp'>): Endpoint {
    return { host: target.hostname, port: target.port ?? AMQP_DEFAULT_PORT };
  }

  async check(target: AddedCheckTarget<'amqp'>): Promise<ProbeResult> {
    const checkedAt = new Date();
    const started = performance.now();
    const settings = target.settings as unknown as AmqpSettings;
    const observed: Observed = {};
    const deadline = started + target.timeout * 1000;
    const remaining = () => Math.max(1, Math.round(deadline - performance.now()));
    let model: ChannelModel | null = null;
    try {
      model = await this.open(target, settings, remaining());
      const socket = streamOf(model);
      if (settings.amqpTls) {
        const certificate = peerCertificateOf(socket as TLSSocket);
        if (certificate) observed.certificate = certificate;
      }
      if (settings.amqpQueue) {
        const channel = await withinTimeout(model.createChannel(), remaining());
        // A missing queue closes the channel: the declare's rejection says so, the event would go unhandled.
        channel.on('error', () => undefined);
        const queue = await withinTimeout(channel.checkQueue(settings.amqpQueue), remaining());
        observed.metrics = { queueDepth: queue.messageCount, consumers: queue.consumerCount };
      }
      const responseTime = Math.round(performance.now() - started);
      return { ok: true, statusCode: null, responseTime, error: null, checkedAt, observed };
    } catch (error) {
      return failedProbe(error, { checkedAt, observed, timeoutSeconds: target.timeout }, (failure, seconds) =>
        describeAmqpFailure(failure, seconds, settings),
      );
    } finally {
      if (model) await closeQuietly(model);
    }
  }

  /** Connects through the outbound policy: an IP literal is judged here, a name by the socket's guarded lookup. */
  private async open(target: AddedCheckTarget<'amqp'>, settings: AmqpSettings, timeoutMs: number): Promise<ChannelModel> {
    const port = target.port ?? AMQP_DEFAULT_PORT;
    const host = target.hostname.replace(/^\[|\]$/g, '');
    const lookup = socketLookup(this.outbound.guard(target.scope), host, port);
    const username = settings.amqpUsername ?? 'guest';
    const password = settings.amqpPassword ?? (settings.amqpUsername ? '' : 'guest');
    const opening = connect(
      {
        protocol: settings.amqpTls ? 'amqps' : 'amqp',
        hostname: host,
        port,
        username,
        password,
        vhost: settings.amqpVhost,
        heartbeat: 0,
        frameMax: MAX_FRAME_BYTES,
        maxFrameSize: MAX_FRAME_BYTES,
      },
      {
        lookup,
        // amqplib closes the socket itself when the handshake is not over by then (a broker that says nothing).
        timeout: timeoutMs,
        servername: settings.amqpTls && isIP(host) === 0 ? host : undefined,
        rejectUnauthorized: !settings.ignoreTls,
        ca: this.ca,
      },
    );
    let abandoned = false;
    // A connection that opens after the check gave up is closed at once rather than left to the broker.
    opening.then(
      (late) => {
        if (abandoned) void closeQuietly(late);
      },
      () => undefined,
    );
    try {
      return await withinTimeout(opening, timeoutMs);
    } catch (error) {
      abandoned = true;
      throw error;
    }
  }
}

/** The socket under amqplib's connection (`Connection.stream`, not in its typings). */
function streamOf(model: ChannelModel): Socket {
  return (model.connection as unknown as { stream: Socket }).stream;
}

/** `Connection.Close` when the broker answers within a second, otherwise the socket is destroyed. */
async function closeQuietly(model: ChannelModel): Promise<void> {
  // A close after a channel error, or on a dead socket, may reject or emit 'error': neither matters any more.
  model.on('error', () => undefined);
  await withinTimeout(model.close(), CLOSE_GRACE_MS).catch(() => undefined);
  streamOf(model)?.destroy();
}

/** The AMQP reply codes a broker closes a handshake or a channel with, in the words the check history shows. */
export function describeAmqpFailure(
  error: unknown,
  timeoutSeconds: number,
  settings: Pick<AmqpSettings, 'amqpVhost' | 'amqpQueue'>,
): string {
  if (error instanceof ProbeFailure) return error.message;
  const message = error instanceof Error ? error.message : '';
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ALTNAME/.test(code)) return describeCertificateCode(code);
  if (code === 'ERR_SSL_WRONG_VERSION_NUMBER') return 'TLS error: the server does not speak TLS on this port';
  // Queue errors close the channel (`Operation failed: QueueDeclare`); login and vhost errors close the handshake.
  const queue = /QueueDeclare|Channel closed/.test(message);
  if (queue && /NOT.FOUND/.test(message)) return `AMQP queue "${settings.amqpQueue ?? ''}" does not exist`;
  if (queue && /ACCESS.REFUSED/.test(message)) return `AMQP queue "${settings.amqpQueue ?? ''}" may not be read by this user`;
  // A broker refusing `Connection.Open` refuses the vhost (amqplib's text leaves the reason out).
  if (/NOT.ALLOWED|access to vhost|^Expected ConnectionOpenOk; got <ConnectionClose/.test(message)) {
    return `AMQP vhost "${settings.amqpVhost}" does not exist or this user may not use it`;
  }
  if (/ACCESS.REFUSED/.test(message)) return 'AMQP login refused: wrong user name or password';
  if (message === 'connect ETIMEDOUT') return `Timeout after ${timeoutSeconds} s`;
  if (/closed abruptly during opening handshake/.test(message)) return 'The server closed the connection during the AMQP handshake';
  if (/^Expected |^Unknown frame|^Invalid frame|^Frame size|^Frame on channel|below the protocol minimum/.test(message)) {
    return 'The server does not speak AMQP 0-9-1';
  }
  if (/SASL mechanism/.test(message)) return 'The broker does not offer PLAIN login';
  const described = describeFailure(error, timeoutSeconds);
  return described.length > 200 ? `${described.slice(0, 199)}…` : described;
}
