import type { AddressDenyList } from '../../common/outbound';
import type { AppConfig } from '../../config/config';
import type { CheckTarget, Checker, ProbeResult } from './checker';
import { describeFailure } from './failure';
import { refusedCertificate, trustedAuthorities } from './peer-certificate';
import { openTargetSocket } from './socket';

/**
 * TLS checks: a handshake with `hostname` (as SNI) on `port` within the timeout; the response time is the time to a
 * completed handshake. The peer certificate is always recorded; an expired, not yet valid, mismatched or untrusted
 * one fails the check unless the monitor ignores TLS errors.
 */
export class TlsChecker implements Checker<'tls'> {
  readonly type = 'tls';
  private readonly deny: AddressDenyList;
  private readonly ca: string[] | undefined;

  /** `ca`: extra certificate authorities to trust besides Node's (specs trust their own test authority this way). */
  constructor(config: Pick<AppConfig, 'outboundDeny'>, trust: { ca?: string[] } = {}) {
    this.deny = config.outboundDeny;
    this.ca = trustedAuthorities(trust.ca);
  }

  async check(target: CheckTarget<'tls'>): Promise<ProbeResult> {
    const checkedAt = new Date();
    const started = performance.now();
    try {
      const { socket, certificate } = await openTargetSocket({
        hostname: target.hostname,
        port: target.port,
        deny: this.deny,
        tls: { ca: this.ca },
        timeoutMs: target.timeout * 1000,
      });
      const responseTime = Math.round(performance.now() - started);
      socket.destroy();
      // A TLS monitor watches the certificate: none at all fails even when TLS errors are ignored.
      if (!certificate) {
        return { ok: false, statusCode: null, responseTime, error: 'TLS error: the server sent no certificate', checkedAt, observed: {} };
      }
      const error = refusedCertificate(certificate, true, target.ignoreTls);
      return { ok: error === null, statusCode: null, responseTime, error, checkedAt, observed: { certificate } };
    } catch (error) {
      return { ok: false, statusCode: null, responseTime: null, error: describeFailure(error, target.timeout), checkedAt, observed: {} };
    }
  }
}
