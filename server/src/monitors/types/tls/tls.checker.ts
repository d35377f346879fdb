import type { Checker, CheckTarget, Endpoint, ProbeResult } from '../../checkers/checker';
import { describeFailure } from '../../checkers/failure';
import { refusedCertificate } from '../../checkers/peer-certificate';
import { openTargetSocket, TargetSocketChecker } from '../../checkers/socket';

/**
 * TLS checks: a handshake with `hostname` (as SNI) on `port` within the timeout; the response time is the time to a
 * completed handshake. The peer certificate is always recorded; an expired, not yet valid, mismatched or untrusted
 * one fails the check unless the monitor ignores TLS errors.
 */
export class TlsChecker extends TargetSocketChecker implements Checker<'tls'> {
  readonly type = 'tls';

  endpoint(target: CheckTarget<'tls'>): Endpoint {
    return { host: target.hostname, port: target.port };
  }

  async check(target: CheckTarget<'tls'>): Promise<ProbeResult> {
    const checkedAt = new Date();
    const started = performance.now();
    try {
      const { socket, certificate } = await openTargetSocket({
        hostname: target.hostname,
        port: target.port,
        guard: this.outbound.guard(target.scope),
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
