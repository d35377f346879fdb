import { Inject, Injectable, OnModuleDestroy } from '@nestjs/common';
import { Agent, Dispatcher, interceptors, request } from 'undici';
import { METHODS_WITH_BODY } from '@vigil/proto';
import { deniedAddress, guardedConnector, isOutboundDenied } from '../common/outbound';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { Histogram } from '../common/histogram';
import { matchesExpectedStatus } from './check-rules';
import type { CheckTarget } from './checkers/checker';

export interface CheckResult {
  ok: boolean;
  statusCode: number | null;
  /** Milliseconds until the response headers arrived; null when no response came. */
  responseTime: number | null;
  error: string | null;
  checkedAt: Date;
}

const MAX_REDIRECTS = 5;

/** Turns a network failure into the short text an operator reads in the check history. */
export function describeFailure(error: unknown, timeoutSeconds: number): string {
  const failure = error as { code?: string; name?: string; message?: string; cause?: { code?: string; message?: string } };
  const code = failure.code ?? failure.cause?.code ?? '';
  if (isOutboundDenied(error)) return `Address ${deniedAddress(error)} is refused by OUTBOUND_DENY`;
  if (failure.name === 'TimeoutError' || failure.name === 'AbortError' || /TIMEOUT/.test(code)) {
    return `Timeout after ${timeoutSeconds} s`;
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME') return 'DNS lookup failed: host not found';
  if (code === 'ECONNREFUSED') return 'Connection refused';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'Connection reset by the server';
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return 'Host unreachable';
  if (/CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code)) return `TLS error: ${failure.message ?? code}`;
  if (code === 'UND_ERR_REDIRECT' || /redirect/i.test(failure.message ?? '')) return `Too many redirects (more than ${MAX_REDIRECTS})`;
  return failure.message || code || 'Request failed';
}

/**
 * HTTP checks over keep-alive connection pools (one pool per origin, at most CHECK_CONNECTIONS_PER_ORIGIN connections:
 * checks beyond it wait for a free connection), following up to 5 redirects. Every connection, each redirect hop's
 * included, is judged against OUTBOUND_DENY on its resolved address.
 */
@Injectable()
export class HttpChecker implements OnModuleDestroy {
  private readonly agent: Agent;
  private readonly dispatcher: Dispatcher;
  /** How long each check's network work took (connecting, redirects, headers, reading out the body), for /api/metrics. */
  readonly requests = new Histogram();

  constructor(@Inject(APP_CONFIG) config: Pick<AppConfig, 'outboundDeny' | 'monitors'>) {
    this.agent = new Agent({
      keepAliveTimeout: 30_000,
      keepAliveMaxTimeout: 60_000,
      connections: config.monitors.connectionsPerOrigin,
      connect: guardedConnector(config.outboundDeny),
    });
    this.dispatcher = this.agent.compose(interceptors.redirect({ maxRedirections: MAX_REDIRECTS }));
  }

  async check(monitor: CheckTarget<'http'>): Promise<CheckResult> {
    const timeoutMs = monitor.timeout * 1000;
    const started = performance.now();
    const checkedAt = new Date();
    try {
      const response = await request(monitor.url, {
        method: monitor.method,
        headers: { 'user-agent': 'Vigil-Monitor/1.0', ...monitor.headers },
        body: METHODS_WITH_BODY.includes(monitor.method) && monitor.body ? monitor.body : undefined,
        dispatcher: this.dispatcher,
        signal: AbortSignal.timeout(timeoutMs),
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      const responseTime = Math.round(performance.now() - started);
      // The body is not inspected; reading it out keeps the connection reusable.
      await response.body.dump({ limit: 1024 * 1024 }).catch(() => undefined);
      if (
        response.statusCode >= 300 &&
        response.statusCode < 400 &&
        response.headers.location &&
        !matchesExpectedStatus(monitor.expectedStatus, response.statusCode)
      ) {
        return {
          ok: false,
          statusCode: response.statusCode,
          responseTime,
          error: `Too many redirects (more than ${MAX_REDIRECTS})`,
          checkedAt,
        };
      }
      const ok = matchesExpectedStatus(monitor.expectedStatus, response.statusCode);
      return {
        ok,
        statusCode: response.statusCode,
        responseTime,
        error: ok ? null : `Unexpected status ${response.statusCode} (expected ${expectedLabel(monitor.expectedStatus)})`,
        checkedAt,
      };
    } catch (error) {
      return { ok: false, statusCode: null, responseTime: null, error: describeFailure(error, monitor.timeout), checkedAt };
    } finally {
      this.requests.observe(performance.now() - started);
    }
  }

  async onModuleDestroy(): Promise<void> {
    await this.agent.close().catch(() => undefined);
  }
}

function expectedLabel(expected: number): string {
  return expected >= 2 && expected <= 5 ? `${expected}xx` : String(expected);
}
