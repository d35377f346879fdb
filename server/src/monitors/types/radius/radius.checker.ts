import { resolveAllowed, type OutboundGuards } from '../../../common/outbound';
import type { AddedCheckTarget, Checker, Endpoint, ProbeResult } from '../../checkers/checker';
import { describeFailure, failedProbe } from '../../checkers/failure';
import { withinTimeout } from '../../checkers/socket';
import { exchangeAccessRequest } from './radius-exchange';

const RADIUS_PORT = 1812;

/** The settings the radius spec validated (proto/src/type-specs/radius.ts), secrets in clear. */
interface RadiusSettings {
  radiusUsername: string;
  radiusPassword: string;
  radiusSecret: string;
  radiusCalledStationId?: string;
  radiusCallingStationId?: string;
}

/**
 * RADIUS checks: one Access-Request with the monitor's user and password. Access-Accept is up, and so is an
 * Access-Challenge (the password was taken and a second factor is asked, as Uptime Kuma counts it); Access-Reject is
 * down, with the server's Reply-Message. The server's address is resolved and judged by the outbound policy first,
 * as the DNS checker does for its UDP server; the answer must verify under the shared secret.
 */
export class RadiusChecker implements Checker<'radius'> {
  readonly type = 'radius' as const;
  private readonly outbound: OutboundGuards;

  constructor(deps: { outbound: OutboundGuards }) {
    this.outbound = deps.outbound;
  }

  endpoint(target: AddedCheckTarget<'radius'>): Endpoint {
    return { host: target.hostname, port: target.port ?? RADIUS_PORT };
  }

  async check(target: AddedCheckTarget<'radius'>): Promise<ProbeResult> {
    const checkedAt = new Date();
    const started = performance.now();
    const timeoutMs = target.timeout * 1000;
    const settings = target.settings as unknown as RadiusSettings;
    const port = target.port ?? RADIUS_PORT;
    try {
      const { address } = await withinTimeout(resolveAllowed(target.hostname, this.outbound.guard(target.scope), port), timeoutMs);
      const remainingMs = Math.max(1, timeoutMs - (performance.now() - started));
      const answer = await exchangeAccessRequest(
        address,
        port,
        {
          username: settings.radiusUsername,
          password: settings.radiusPassword,
          secret: settings.radiusSecret,
          calledStationId: settings.radiusCalledStationId,
          callingStationId: settings.radiusCallingStationId,
        },
        remainingMs,
      );
      const responseTime = Math.round(performance.now() - started);
      const said = answer.replyMessage ? `: ${answer.replyMessage}` : '';
      if (answer.code === 'Access-Reject') {
        return { ok: false, statusCode: null, responseTime, error: `Access-Reject${said}`, checkedAt, observed: {} };
      }
      return { ok: true, statusCode: null, responseTime, error: null, checkedAt, observed: {} };
    } catch (error) {
      return failedProbe(error, { checkedAt, observed: {}, timeoutSeconds: target.timeout }, describeRadiusFailure);
    }
  }
}

/** Silence is what a server gives a client it does not know (RADIUS drops requests from unknown NAS addresses). */
function describeRadiusFailure(error: unknown, timeoutSeconds: number): string {
  const text = describeFailure(error, timeoutSeconds);
  return text.startsWith('Timeout') ? `${text}: no RADIUS answer (a server drops requests from clients it does not know)` : text;
}
