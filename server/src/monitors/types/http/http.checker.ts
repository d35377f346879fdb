import { TLSSocket } from 'node:tls';
import { Agent, buildConnector, Client, Dispatcher, interceptors, Pool, request } from 'undici';
import { METHODS_WITH_BODY, type Assertion } from '@vigil/proto';
import { guardedConnector, type AddressGuard, type OutboundGuards, type OutboundScope, urlEndpoint } from '../../../common/outbound';
import type { AppConfig } from '../../../config/config';
import { Histogram } from '../../../common/histogram';
import type { Checker, CheckTarget, Endpoint, Observed, PeerCertificate, ProbeResult } from '../../checkers/checker';
import { describeFailure } from '../../checkers/failure';
import { CertificateRejectedError, peerCertificateOf, rejectedCertificate, trustedAuthorities } from '../../checkers/peer-certificate';

export { describeFailure } from '../../checkers/failure';

/** Text kept of a body for the assertions; the rest is read out and dropped. */
const BODY_KEPT_BYTES = 64 * 1024;
/** A body longer than this is not read out: its connection is closed instead of kept alive. */
const BODY_DRAIN_LIMIT = 1024 * 1024;

/** Tells a request's probe which pooled client carried it, so the check can read that client's peer certificate. */
const PROBE = Symbol('vigil.httpProbe');
interface Probe {
  client: ProbeClient | null;
}

/** An HTTP/1.1 client (one connection at a time) that knows the certificate of its current connection. */
class ProbeClient extends Client {
  peer: PeerCertificate | null = null;

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const probe = (options as { [PROBE]?: Probe })[PROBE];
    if (probe) probe.client = this;
    return super.dispatch(options, handler);
  }
}

/**
 * The pooled clients of one agent. Each new connection's certificate is read once, when it opens, and kept on its
 * client. Sockets are opened without Node's own rejection so the certificate is known even when it is refused; a
 * strict agent then refuses it itself before any request (and its headers) is written.
 */
function probeClients(strict: boolean) {
  return (origin: URL, options: object): Dispatcher => {
    const connect = (options as { connect: buildConnector.connector }).connect;
    const client: ProbeClient = new ProbeClient(origin, {
      ...options,
      connect: (connectOptions, callback) =>
        connect(connectOptions, (error, socket) => {
          if (error) return callback(error, null);
          if (!(socket instanceof TLSSocket)) return callback(null, socket);
          const peer = peerCertificateOf(socket);
          client.peer = peer;
          if (strict && !socket.authorized) {
            socket.destroy();
            return callback(peer ? new CertificateRejectedError(peer) : new Error('TLS error: the server sent no certificate'), null);
          }
          callback(null, socket);
        }),
    });
    return client;
  };
}

/** Whether any assertion reads the body (otherwise it is drained unread, as cheaply as before assertions existed). */
function readsBody(assertions: readonly Assertion[]): boolean {
  return assertions.some((assertion) => assertion.source === 'body' || assertion.source === 'jsonPath');
}

function readsHeaders(assertions: readonly Assertion[]): boolean {
  return assertions.some((assertion) => assertion.source === 'header');
}

export const DEFAULT_USER_AGENT = 'Vigil-Monitor/1.0';

/**
 * HTTP checks over keep-alive connection pools (one pool per origin, at most CHECK_CONNECTIONS_PER_ORIGIN connections:
 * checks beyond it wait for a free connection), following up to the monitor's `maxRedirects`. Every connection, each
 * redirect hop's included, is judged by the outbound policy on its resolved address. Agents are shared by all monitors
 * of a scope (admin or user, whose rules differ; a kept-alive connection is never lent across them): one refusing
 * invalid certificates, one for monitors that ignore TLS errors.
 */
export class HttpChecker implements Checker<'http'> {
  readonly type = 'http';
  private readonly agents: Agent[] = [];
  private readonly dispatchers: Record<OutboundScope, { strict: Dispatcher; lenient: Dispatcher }>;
  /** How long each check's network work took (connecting, redirects, headers, reading out the body), for /api/metrics. */
  readonly requests = new Histogram();

  /** `ca`: extra certificate authorities to trust besides Node's (specs trust their own test authority this way). */
  /** Sent unless the monitor sets its own; an agent adds its name, so a target's logs tell which location asked. */
  private readonly userAgent: string;

  constructor(
    deps: { outbound: OutboundGuards; monitors: Pick<AppConfig['monitors'], 'connectionsPerOrigin'>; userAgent?: string },
    trust: { ca?: string[] } = {},
  ) {
    this.userAgent = deps.userAgent ?? DEFAULT_USER_AGENT;
    const connections = deps.monitors.connectionsPerOrigin;
    // The redirect limit is read from each request's own `maxRedirections`, so one composed dispatcher serves every limit.
    const dispatchersOf = (guard: AddressGuard) => ({
      strict: this.agent(guard, connections, true, trust.ca).compose(interceptors.redirect()),
      lenient: this.agent(guard, connections, false, trust.ca).compose(interceptors.redirect()),
    });
    this.dispatchers = { admin: dispatchersOf(deps.outbound.guard('admin')), user: dispatchersOf(deps.outbound.guard('user')) };
  }

  private agent(guard: AddressGuard, connections: number, strict: boolean, ca: string[] | undefined): Agent {
    // No TLS session reuse: a resumed session skips the name check and this checker must judge every connection.
    const connect = guardedConnector(guard, { rejectUnauthorized: false, maxCachedSessions: 0, ca: trustedAuthorities(ca) });
    const clients = probeClients(strict);
    const agent = new Agent({
      keepAliveTimeout: 30_000,
      keepAliveMaxTimeout: 60_000,
      connections,
      connect,
      factory: (origin, options) => new Pool(origin, { ...options, factory: clients }),
    });
    this.agents.push(agent);
    return agent;
  }

  endpoint(target: CheckTarget<'http'>): Endpoint | null {
    return urlEndpoint(target.url);
  }

  async check(target: CheckTarget<'http'>): Promise<ProbeResult> {
    const timeoutMs = target.timeout * 1000;
    const started = performance.now();
    const checkedAt = new Date();
    const probe: Probe = { client: null };
    const options = {
      method: target.method,
      headers: { 'user-agent': this.userAgent, ...target.headers },
      body: METHODS_WITH_BODY.includes(target.method) && target.body ? target.body : undefined,
      dispatcher: this.dispatchers[target.scope][target.ignoreTls ? 'lenient' : 'strict'],
      signal: AbortSignal.timeout(timeoutMs),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      maxRedirections: target.maxRedirects,
      [PROBE]: probe,
    };
    try {
      const response = await request(target.url, options);
      const responseTime = Math.round(performance.now() - started);
      // Read at once: the client may open a new connection for a later request.
      const certificate = probe.client?.peer ?? undefined;
      const observed: Observed = { statusCode: response.statusCode };
      if (readsHeaders(target.assertions)) observed.headers = lowerCaseHeaders(response.headers);
      if (certificate) observed.certificate = certificate;
      if (readsBody(target.assertions)) {
        try {
          observed.body = await readBodyHead(response.body);
        } catch (error) {
          return failed(checkedAt, describeFailure(error, target.timeout), observed, response.statusCode, responseTime);
        }
      } else {
        // The body is not inspected; reading it out keeps the connection reusable.
        await response.body.dump({ limit: BODY_DRAIN_LIMIT }).catch(() => undefined);
      }
      const { statusCode } = response;
      const expected = matchesExpectedStatus(target.expectedStatus, statusCode);
      if (statusCode >= 300 && statusCode < 400 && response.headers.location && !expected) {
        return failed(checkedAt, tooManyRedirects(target.maxRedirects), observed, statusCode, responseTime);
      }
      if (!expected) {
        return failed(
          checkedAt,
          `Unexpected status ${statusCode} (expected ${expectedLabel(target.expectedStatus)})`,
          observed,
          statusCode,
          responseTime,
        );
      }
      return { ok: true, statusCode, responseTime, error: null, checkedAt, observed };
    } catch (error) {
      const certificate = rejectedCertificate(error);
      return failed(checkedAt, describeFailure(error, target.timeout), certificate ? { certificate } : {}, null, null);
    } finally {
      this.requests.observe(performance.now() - started);
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.agents.map((agent) => agent.close())).catch(() => undefined);
  }
}

function failed(checkedAt: Date, error: string, observed: Observed, statusCode: number | null, responseTime: number | null): ProbeResult {
  return { ok: false, statusCode, responseTime, error, checkedAt, observed };
}

function tooManyRedirects(maxRedirects: number): string {
  return maxRedirects === 0 ? 'Redirect not followed (max redirects 0)' : `Too many redirects (more than ${maxRedirects})`;
}

function expectedLabel(expected: number): string {
  return expected >= 2 && expected <= 5 ? `${expected}xx` : String(expected);
}

/** undici already lower-cases names; a repeated header arrives as a list and is joined as HTTP would fold it. */
function lowerCaseHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) result[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return result;
}

/** The first 64 KiB of a body as text; the rest is read out and dropped (up to the drain limit, then the connection closes). */
async function readBodyHead(body: AsyncIterable<Buffer>): Promise<string> {
  const kept: Buffer[] = [];
  let keptBytes = 0;
  let readBytes = 0;
  for await (const chunk of body) {
    readBytes += chunk.length;
    if (keptBytes < BODY_KEPT_BYTES) {
      const part = chunk.subarray(0, BODY_KEPT_BYTES - keptBytes);
      kept.push(part);
      keptBytes += part.length;
    }
    if (readBytes > BODY_DRAIN_LIMIT) break;
  }
  return Buffer.concat(kept).toString('utf8');
}

/** Expected status 2–5 accepts the whole class (2 → any 2xx); anything else must match exactly. */
export function matchesExpectedStatus(expected: number, statusCode: number): boolean {
  if (expected >= 2 && expected <= 5) return Math.floor(statusCode / 100) === expected;
  return statusCode === expected;
}
