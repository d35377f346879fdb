import { rootCertificates, type PeerCertificate as NodePeerCertificate, type TLSSocket } from 'node:tls';
import type { PeerCertificate } from './checker';

/**
 * The certificate a TLS socket's peer presented, as checks record it, or null when it sent none. Sockets are
 * opened with `rejectUnauthorized: false` so that an expired or mismatched certificate can still be recorded; the
 * verdict Node reached (chain, dates, name) is kept in `authorizationError` and each checker fails on it unless the
 * monitor ignores TLS errors.
 */
export function peerCertificateOf(socket: TLSSocket): PeerCertificate | null {
  const cert = socket.getPeerCertificate();
  if (!cert || !cert.valid_to || !cert.fingerprint256) return null;
  return {
    subject: distinguishedName(cert.subject),
    issuer: distinguishedName(cert.issuer),
    expiresAt: new Date(cert.valid_to),
    fingerprint: cert.fingerprint256,
    authorizationError: socket.authorized ? null : String(socket.authorizationError ?? 'UNABLE_TO_VERIFY_LEAF_SIGNATURE'),
  };
}

/** `CN=example.com, O=Example Inc` from the fields that name a party (a certificate may repeat a field). */
function distinguishedName(name: NodePeerCertificate['subject'] | undefined): string {
  if (!name) return '';
  const parts: string[] = [];
  for (const field of ['CN', 'O'] as const) {
    const value = (name as unknown as Record<string, string | string[] | undefined>)[field];
    for (const one of Array.isArray(value) ? value : value ? [value] : []) parts.push(`${field}=${one}`);
  }
  return parts.join(', ');
}

/**
 * Whole days left at `at`, rounded down (20 days and 23 hours is 20; under a day is 0); negative once expired. One
 * count for reads, assertions, the status page and the expiry alerts.
 */
export function daysRemaining(expiresAt: Date, at: Date): number {
  return Math.floor((expiresAt.getTime() - at.getTime()) / 86_400_000);
}

/** Node's verification codes, in the words the check history shows. */
const PROBLEMS: Record<string, string> = {
  CERT_HAS_EXPIRED: 'certificate has expired',
  CERT_NOT_YET_VALID: 'certificate is not yet valid',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'self-signed certificate',
  SELF_SIGNED_CERT_IN_CHAIN: 'self-signed certificate in the chain',
  UNABLE_TO_GET_ISSUER_CERT: 'certificate issuer unknown',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'certificate issuer unknown',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'certificate chain cannot be verified',
  CERT_SIGNATURE_FAILURE: 'certificate signature is invalid',
  CERT_REVOKED: 'certificate is revoked',
  ERR_TLS_CERT_ALTNAME_INVALID: 'certificate does not match the host name',
};

/** `TLS error: certificate has expired` for a certificate the check does not accept. */
export function describeCertificateProblem(certificate: PeerCertificate): string {
  return describeCertificateCode(certificate.authorizationError ?? '');
}

/** `TLS error: self-signed certificate` for one of Node's verification codes (`DEPTH_ZERO_SELF_SIGNED_CERT`). */
export function describeCertificateCode(code: string): string {
  return `TLS error: ${PROBLEMS[code] ?? code.toLowerCase().replace(/_/g, ' ')}`;
}

/** The failure text for a certificate a check may not accept (none sent, or one Node refused); null when it may. */
export function refusedCertificate(certificate: PeerCertificate | null | undefined, secure: boolean, ignoreTls: boolean): string | null {
  if (!secure || ignoreTls) return null;
  if (!certificate) return 'TLS error: the server sent no certificate';
  return certificate.authorizationError ? describeCertificateProblem(certificate) : null;
}

/** The error a strict connection fails with when its peer's certificate is refused; it carries the certificate. */
export class CertificateRejectedError extends Error {
  readonly code: string;

  constructor(readonly certificate: PeerCertificate) {
    super(describeCertificateProblem(certificate));
    this.name = 'CertificateRejectedError';
    this.code = certificate.authorizationError ?? 'CERT_REJECTED';
  }
}

/** The refused certificate an error (or its cause) carries, if any. */
export function rejectedCertificate(error: unknown): PeerCertificate | undefined {
  const failure = error as { certificate?: PeerCertificate; cause?: { certificate?: PeerCertificate } } | null;
  return failure?.certificate ?? failure?.cause?.certificate;
}

/** Node's own authorities plus extra ones (undefined: Node's default store, as in production). */
export function trustedAuthorities(extra: string[] | undefined): string[] | undefined {
  return extra?.length ? [...rootCertificates, ...extra] : undefined;
}
