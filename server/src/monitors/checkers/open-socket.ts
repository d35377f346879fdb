import { connect as netConnect, isIP, type Socket } from 'node:net';
import { connect as tlsConnect, rootCertificates, type DetailedPeerCertificate, type TLSSocket } from 'node:tls';
import { AddressDenyList, deniedAddress, isOutboundDenied, resolveAllowed } from '../../common/outbound';
import type { PeerCertificate } from './checker';

export interface OpenedSocket {
  socket: Socket;
  /** The TLS peer's certificate; undefined for plaintext or when the peer sent none. */
  certificate?: PeerCertificate;
  /** The protocol ALPN settled on (TLS only), e.g. `h2`. */
  alpnProtocol?: string | false | null;
}

export interface OpenSocketOptions {
  hostname: string;
  port: number;
  deny: AddressDenyList;
  /** Set: a TLS handshake offering these ALPN protocols, trusting `ca` (undefined: Node's authorities). */
  tls: { alpn: string[]; ca?: string[] } | null;
  signal: AbortSignal;
}

/**
 * Connects to the address OUTBOUND_DENY allows for `hostname` and, for TLS, completes the handshake without rejecting
 * the certificate, so the caller records it and decides (an invalid one fails the check unless ignoreTls). Nothing
 * is written before the caller has judged the certificate. The socket is destroyed if this rejects.
 */
export async function openSocket(options: OpenSocketOptions): Promise<OpenedSocket> {
  const { address } = await untilAborted(resolveAllowed(options.hostname, options.deny), options.signal);
  const host = options.hostname.replace(/^\[|\]$/g, '');
  const socket: Socket = options.tls
    ? tlsConnect({
        host: address,
        port: options.port,
        // SNI and the identity check use the name; an IP literal is checked against the certificate's IP entries.
        servername: isIP(host) === 0 ? host : undefined,
        ALPNProtocols: options.tls.alpn,
        ca: options.tls.ca,
        rejectUnauthorized: false,
      })
    : netConnect({ host: address, port: options.port });
  try {
    await new Promise<void>((resolve, reject) => {
      const abort = () => reject(options.signal.reason);
      options.signal.addEventListener('abort', abort, { once: true });
      socket.once(options.tls ? 'secureConnect' : 'connect', () => {
        options.signal.removeEventListener('abort', abort);
        resolve();
      });
      socket.once('error', (error) => {
        options.signal.removeEventListener('abort', abort);
        reject(error);
      });
    });
  } catch (error) {
    socket.destroy();
    throw error;
  }
  if (!options.tls) return { socket };
  const secure = socket as TLSSocket;
  return { socket, certificate: peerCertificateOf(secure), alpnProtocol: secure.alpnProtocol };
}

/** `work`, or the signal's reason if it aborts first (a lookup cannot be cancelled, only no longer waited for). */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const abort = () => reject(signal.reason);
    signal.addEventListener('abort', abort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}

/** The peer certificate of a finished handshake in the contract's shape; undefined when the peer sent none. */
export function peerCertificateOf(socket: TLSSocket): PeerCertificate | undefined {
  const cert = socket.getPeerCertificate(false) as DetailedPeerCertificate | Record<string, never>;
  if (!cert || !('valid_to' in cert) || !cert.valid_to) return undefined;
  return {
    subject: distinguishedName(cert.subject),
    issuer: distinguishedName(cert.issuer),
    expiresAt: new Date(cert.valid_to),
    fingerprint: cert.fingerprint256,
    authorizationError: socket.authorized ? null : String(socket.authorizationError ?? 'certificate not trusted'),
  };
}

function distinguishedName(name: Record<string, string | string[] | undefined> | undefined): string {
  if (!name) return '';
  return Object.entries(name)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}=${Array.isArray(value) ? value.join('+') : value}`)
    .join(', ');
}

/** A connection failure as the history shows it (shared by the checkers that connect with openSocket). */
export function describeConnectFailure(error: unknown, timeoutSeconds: number): string {
  const failure = error as { code?: string; name?: string; message?: string } | null;
  const code = failure?.code ?? '';
  if (isOutboundDenied(error)) return `Address ${deniedAddress(error)} is refused by OUTBOUND_DENY`;
  if (failure?.name === 'TimeoutError' || failure?.name === 'AbortError') return `Timeout after ${timeoutSeconds} s`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME' || code === 'EAI_NODATA') {
    return 'DNS lookup failed: host not found';
  }
  if (code === 'ECONNREFUSED') return 'Connection refused';
  if (code === 'ECONNRESET' || code === 'EPIPE') return 'Connection reset by the server';
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return 'Host unreachable';
  if (/CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code)) return `TLS error: ${failure?.message ?? code}`;
  return failure?.message || code || 'Connection failed';
}

/** The failure text for a certificate the check may not accept; null when it may. */
export function refusedCertificate(certificate: PeerCertificate | undefined, secure: boolean, ignoreTls: boolean): string | null {
  if (!secure || ignoreTls) return null;
  if (!certificate) return 'TLS error: the server sent no certificate';
  return certificate.authorizationError ? `TLS error: ${certificate.authorizationError}` : null;
}

/** Node's authorities plus extra ones (specs trust their own certificates so); undefined: Node's default store. */
export function trustedAuthorities(extra: string[] | undefined): string[] | undefined {
  return extra?.length ? [...rootCertificates, ...extra] : undefined;
}
