import { isIP } from 'node:net';
import { connect } from 'node:tls';
import { socketLookup, type AddressDenyList } from '../../common/outbound';
import type { AppConfig } from '../../config/config';
import type { CheckTarget, Checker, ProbeResult } from './checker';
import { describeFailure } from './failure';
import { describeCertificateProblem, peerCertificateOf, trustedAuthorities } from './peer-certificate';
import { openSocket } from './socket';

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
      const socket = await openSocket(
        () =>
          connect({
            host: target.hostname,
            port: target.port,
            // SNI takes names only; an address is matched against the certificate's IP entries.
            servername: isIP(target.hostname) ? undefined : target.hostname,
            lookup: socketLookup(this.deny, target.hostname),
            // Judged below, so that a refused certificate is still recorded.
            rejectUnauthorized: false,
            ca: this.ca,
          }),
        'secureConnect',
        target.timeout * 1000,
      );
      const responseTime = Math.round(performance.now() - started);
      const certificate = peerCertificateOf(socket);
      socket.destroy();
      if (!certificate) {
        return { ok: false, statusCode: null, responseTime, error: 'TLS error: the server sent no certificate', checkedAt, observed: {} };
      }
      const refused = certificate.authorizationError !== null && !target.ignoreTls;
      const error = refused ? describeCertificateProblem(certificate) : null;
      return { ok: !refused, statusCode: null, responseTime, error, checkedAt, observed: { certificate } };
    } catch (error) {
      return { ok: false, statusCode: null, responseTime: null, error: describeFailure(error, target.timeout), checkedAt, observed: {} };
    }
  }
}
