import type { Socket } from 'node:net';
import { isIP } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type { ConnectionOptions, NatsConnection, TlsOptions } from 'nats';
import { NatsConnectionImpl, setTransportFactory } from 'nats/lib/src/nats-base-client';
import { NodeTransport, nodeResolveHost } from 'nats/lib/src/node_transport';
import { resolveAllowed } from '../../../common/outbound';
import type { AddedCheckTarget, Checker, Endpoint, Observed, ProbeResult } from '../../checkers/checker';
import { describeFailure, failedProbe, ProbeFailure } from '../../checkers/failure';
import { describeCertificateCode, peerCertificateOf } from '../../checkers/peer-certificate';
import { TargetSocketChecker, withinTimeout } from '../../checkers/socket';

export const NATS_DEFAULT_PORT = 4222;
/** What one check may read from a server in all (INFO, the reply, the consumer's info): far above a healthy answer. */
export const NATS_READ_LIMIT_BYTES = 1024 * 1024;
/** The reply text kept for the assertions, as for the other types' bodies. */
const BODY_LIMIT_BYTES = 64 * 1024;
const CLOSE_GRACE_MS = 1000;

/** The settings the `nats` spec validated (proto/src/type-specs/nats.ts), defaults filled. */
interface NatsSettings {
  natsUsername?: string;
  natsPassword?: string;
  natsToken?: string;
  natsTls: boolean;
  ignoreTls: boolean;
  natsSubject?: string;
  natsRequestBody?: string;
  natsStream?: string;
  natsConsumer?: string;
}

/** The error a check fails with once a server sent more than NATS_READ_LIMIT_BYTES. */
class ReadLimitError extends Error {
  readonly code = 'NATS_READ_LIMIT';
}

/**
 * nats.js's Node transport with a cap on the bytes read: the library buffers the INFO line and each message whole,
 * so a hostile server could otherwise grow memory for the whole timeout. Counting at `emit('data')` survives the
 * library's `removeAllListeners` calls.
 */
class CappedTransport extends NodeTransport {
  private received = 0;

  override async dial(hp: { hostname: string; port: number }): Promise<Socket> {
    return this.capped(await super.dial(hp));
  }

  override async startTLS(): Promise<TLSSocket> {
    return this.capped(await super.startTLS());
  }

  private capped<S extends Socket>(socket: S): S {
    const emit = socket.emit.bind(socket) as (event: string | symbol, ...args: unknown[]) => boolean;
    socket.emit = ((event: string | symbol, ...args: unknown[]) => {
      if (event === 'data') {
        this.received += (args[0] as Buffer).length;
        if (this.received > NATS_READ_LIMIT_BYTES) {
          socket.destroy(new ReadLimitError(`The server sent more than ${NATS_READ_LIMIT_BYTES / 1024} KiB`));
          return false;
        }
      }
      return emit(event, ...args);
    }) as S['emit'];
    return socket;
  }
}

/** nats.js's `connect` with the capped transport (the library keeps one transport factory for the process). */
function connectCapped(options: ConnectionOptions): Promise<NatsConnection> {
  setTransportFactory({ factory: () => new CappedTransport(), dnsResolveFn: nodeResolveHost });
  return NatsConnectionImpl.connect(options);
}

/**
 * NATS: connects with the monitor's credentials (user and password, or a token), optionally sends a request to a
 * subject and waits for its answer (the `body`), and optionally reads a JetStream consumer's info (its pending
 * messages are `streamLag`). The name is resolved here through the outbound policy and the library connects to that
 * address, never to the servers a cluster advertises; the whole check is bounded by the monitor's timeout.
 */
export class NatsChecker extends TargetSocketChecker implements Checker<'nats'> {
  readonly type = 'nats' as const;

  endpoint(target: AddedCheckTarget<'nats'>): Endpoint {
    return { host: target.hostname, port: target.port ?? NATS_DEFAULT_PORT };
  }

  async check(target: AddedCheckTarget<'nats'>): Promise<ProbeResult> {
    const checkedAt = new Date();
    const started = performance.now();
    const settings = target.settings as unknown as NatsSettings;
    const observed: Observed = {};
    const deadline = started + target.timeout * 1000;
    const remaining = () => Math.max(1, Math.round(deadline - performance.now()));
    let connection: NatsConnection | null = null;
    try {
      connection = await this.open(target, settings, remaining);
      if (settings.natsTls) {
        const certificate = peerCertificateOf(socketOf(connection) as TLSSocket);
        if (certificate) observed.certificate = certificate;
      }
      if (settings.natsSubject) {
        const subject = settings.natsSubject;
        const reply = await connection
          .request(subject, new TextEncoder().encode(settings.natsRequestBody ?? ''), { timeout: remaining() })
          .catch((error: unknown) => {
            throw requestFailure(error, `No service answers on "${subject}"`, `No answer on "${subject}" within ${target.timeout} s`);
          });
        observed.body = Buffer.from(reply.data.subarray(0, BODY_LIMIT_BYTES)).toString('utf8');
      }
      if (settings.natsStream && settings.natsConsumer) {
        observed.metrics = { streamLag: await consumerPending(connection, settings.natsStream, settings.natsConsumer, remaining()) };
      }
      const responseTime = Math.round(performance.now() - started);
      return { ok: true, statusCode: null, responseTime, error: null, checkedAt, observed };
    } catch (error) {
      // Without TLS asked for, nats.js still starts it for a server that requires it, and fails doing so.
      const failure =
        !settings.natsTls && isTlsFailure(error) ? new ProbeFailure('The server requires TLS: turn on TLS for this monitor') : error;
      return failedProbe(failure, { checkedAt, observed, timeoutSeconds: target.timeout }, describeNatsFailure);
    } finally {
      if (connection) await withinTimeout(connection.close(), CLOSE_GRACE_MS).catch(() => socketOf(connection!)?.destroy());
    }
  }

  private async open(target: AddedCheckTarget<'nats'>, settings: NatsSettings, remaining: () => number): Promise<NatsConnection> {
    const port = target.port ?? NATS_DEFAULT_PORT;
    const host = target.hostname.replace(/^\[|\]$/g, '');
    const { address } = await withinTimeout(resolveAllowed(host, this.outbound.guard(target.scope), port), remaining());
    const options: ConnectionOptions = {
      servers: `${isIP(address) === 6 ? `[${address}]` : address}:${port}`,
      user: settings.natsUsername,
      pass: settings.natsUsername ? (settings.natsPassword ?? '') : undefined,
      token: settings.natsToken,
      // Node's TLS options pass through (nats.js types only its own): the certificate is checked against the name the
      // monitor gave, not the address connected to. Null: no TLS, even where a server offers it.
      tls: settings.natsTls
        ? ({ servername: isIP(host) === 0 ? host : undefined, rejectUnauthorized: !settings.ignoreTls, ca: this.ca } as TlsOptions)
        : null,
      timeout: remaining(),
      name: 'vigil-monitor',
      reconnect: false,
      maxReconnectAttempts: 0,
      ignoreClusterUpdates: true,
      noRandomize: true,
      resolve: false,
      pingInterval: 3_600_000,
    };
    let abandoned = false;
    const opening = connectCapped(options);
    // A connection that opens after the check gave up is closed at once.
    opening.then(
      (late) => {
        if (abandoned) void late.close().catch(() => undefined);
      },
      () => undefined,
    );
    try {
      return await withinTimeout(opening, remaining());
    } catch (error) {
      abandoned = true;
      throw error;
    }
  }
}

const isTlsFailure = (error: unknown): boolean => (error as { code?: unknown } | null)?.code === 'TLS';

/** The socket under a connection (nats.js keeps it on its transport, not in its typings). */
function socketOf(connection: NatsConnection): Socket | undefined {
  return (connection as unknown as { protocol?: { transport?: { socket?: Socket } } }).protocol?.transport?.socket;
}

interface ConsumerInfoReply {
  num_pending?: unknown;
  error?: { code?: number; err_code?: number; description?: string };
}

/** A JetStream consumer's pending messages, from the `CONSUMER.INFO` API (any JetStream server answers it). */
async function consumerPending(connection: NatsConnection, stream: string, consumer: string, timeoutMs: number): Promise<number> {
  const reply = await connection
    .request(`$JS.API.CONSUMER.INFO.${stream}.${consumer}`, new Uint8Array(0), { timeout: timeoutMs })
    .catch((error: unknown) => {
      throw requestFailure(error, 'JetStream is not enabled on this server', 'JetStream did not answer the consumer info request in time');
    });
  let info: ConsumerInfoReply;
  try {
    info = JSON.parse(Buffer.from(reply.data).toString('utf8')) as ConsumerInfoReply;
  } catch {
    throw new ProbeFailure('JetStream answered the consumer info request with something other than JSON');
  }
  if (info.error) {
    if (info.error.err_code === 10059) throw new ProbeFailure(`JetStream stream "${stream}" does not exist`);
    if (info.error.err_code === 10014) throw new ProbeFailure(`JetStream consumer "${consumer}" does not exist on stream "${stream}"`);
    throw new ProbeFailure(
      `JetStream refused the consumer info request: ${String(info.error.description ?? info.error.code).slice(0, 200)}`,
    );
  }
  if (typeof info.num_pending !== 'number') throw new ProbeFailure('JetStream consumer info has no pending count');
  return info.num_pending;
}

/** A request's own failures named for what was asked (no responders, no answer in time); others pass unchanged. */
function requestFailure(error: unknown, noResponders: string, noAnswer: string): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === '503') return new ProbeFailure(noResponders);
  if (code === 'TIMEOUT') return new ProbeFailure(noAnswer);
  return error;
}

/** nats.js's error codes in the words the check history shows. */
export function describeNatsFailure(error: unknown, timeoutSeconds: number): string {
  if (error instanceof ProbeFailure) return error.message;
  const failure = (error ?? {}) as { code?: unknown; message?: string; chainedError?: { code?: unknown; message?: string } };
  const code = typeof failure.code === 'string' ? failure.code : '';
  const inner = typeof failure.chainedError?.code === 'string' ? failure.chainedError.code : '';
  if (error instanceof ReadLimitError || code === 'NATS_READ_LIMIT') return `The server sent more than ${NATS_READ_LIMIT_BYTES / 1024} KiB`;
  for (const candidate of [code, inner]) {
    if (/CERT|SELF_SIGNED|UNABLE_TO_VERIFY|ALTNAME/.test(candidate)) return describeCertificateCode(candidate);
  }
  switch (code) {
    case 'AUTHORIZATION_VIOLATION':
    case 'BAD_AUTHENTICATION':
      return 'NATS login refused: wrong user name, password or token';
    case 'AUTHENTICATION_TIMEOUT':
      return 'NATS login refused: the server timed out waiting for credentials';
    case 'PERMISSIONS_VIOLATION':
      return 'NATS refused the request: this user may not publish or subscribe there';
    case 'CONNECTION_REFUSED':
      return describeFailure(failure.chainedError ?? { code: 'ECONNREFUSED' }, timeoutSeconds);
    case 'CONNECTION_TIMEOUT':
    case 'TIMEOUT':
      return `Timeout after ${timeoutSeconds} s`;
    case 'SERVER_OPT_NA':
      return 'The server does not offer TLS';
  }
  if (/unexpected response from server/.test(failure.message ?? '')) return 'The server does not speak NATS';
  const described = describeFailure(error, timeoutSeconds);
  return described.length > 200 ? `${described.slice(0, 199)}…` : described;
}
