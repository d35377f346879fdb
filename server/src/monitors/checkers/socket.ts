import { connect as netConnect, isIP, type Socket } from 'node:net';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import { socketLookup, type AddressGuard, type OutboundGuards } from '../../common/outbound';
import type { PeerCertificate } from './checker';
import { timeoutError } from './failure';
import { peerCertificateOf, trustedAuthorities } from './peer-certificate';

/**
 * Opens a socket and waits until it is `ready` ('connect', or 'secureConnect' after a TLS handshake); fails on its
 * error or after `timeoutMs`, destroying it. The caller destroys the socket it gets.
 */
export function openSocket<S extends Socket>(open: () => S, ready: 'connect' | 'secureConnect', timeoutMs: number): Promise<S> {
  return new Promise<S>((resolve, reject) => {
    const socket = open();
    const fail = (error: Error) => {
      clearTimeout(timer);
      socket.destroy();
      reject(error);
    };
    const timer = setTimeout(() => fail(timeoutError()), timeoutMs);
    // Stays attached: an error after the handshake (a reset while closing) must not go unhandled.
    socket.on('error', fail);
    socket.once(ready, () => {
      clearTimeout(timer);
      resolve(socket);
    });
  });
}

export interface TargetSocket {
  socket: Socket;
  /** The TLS peer's certificate; null for plaintext or when the peer sent none. */
  certificate: PeerCertificate | null;
  /** The protocol ALPN settled on (TLS only), e.g. `h2`. */
  alpnProtocol?: string | false | null;
}

export interface TargetSocketOptions {
  /** A name or an IP address (brackets allowed, as in a URL's host). */
  hostname: string;
  port: number;
  guard: AddressGuard;
  /** Set: a TLS handshake offering these ALPN protocols, trusting `ca` (undefined: Node's authorities). */
  tls: { alpn?: string[]; ca?: string[] } | null;
  timeoutMs: number;
}

/**
 * A connection to a check's target through the outbound policy, for the checkers that speak a protocol over it (TLS,
 * WebSocket, gRPC). The TLS handshake does not reject the certificate, so the caller records it and decides
 * (`refusedCertificate`); nothing is written before that.
 */
export async function openTargetSocket(options: TargetSocketOptions): Promise<TargetSocket> {
  const host = options.hostname.replace(/^\[|\]$/g, '');
  const lookup = socketLookup(options.guard, host, options.port);
  if (!options.tls) {
    return {
      socket: await openSocket(() => netConnect({ host, port: options.port, lookup }), 'connect', options.timeoutMs),
      certificate: null,
    };
  }
  const { alpn, ca } = options.tls;
  const socket: TLSSocket = await openSocket(
    () =>
      tlsConnect({
        host,
        port: options.port,
        // SNI takes names only; an address is matched against the certificate's IP entries.
        servername: isIP(host) ? undefined : host,
        ALPNProtocols: alpn,
        lookup,
        rejectUnauthorized: false,
        ca,
      }),
    'secureConnect',
    options.timeoutMs,
  );
  return { socket, certificate: peerCertificateOf(socket), alpnProtocol: socket.alpnProtocol };
}

/**
 * `work`, or a timeout error after `timeoutMs` (a lookup cannot be cancelled, only no longer waited for). A plain
 * timer: `AbortSignal.timeout` costs a weakly held signal per call, which showed at thousands of checks a minute.
 */
export function withinTimeout<T>(work: Promise<T>, timeoutMs: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(timeoutError()), timeoutMs);
    work.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** What the checkers that open their target's socket themselves hold: the outbound policy and the authorities they trust. */
export abstract class TargetSocketChecker {
  protected readonly outbound: OutboundGuards;
  protected readonly ca: string[] | undefined;

  /** `trust.ca`: authorities to trust besides Node's (specs trust their own test authority this way). */
  constructor(deps: { outbound: OutboundGuards }, trust: { ca?: string[] } = {}) {
    this.outbound = deps.outbound;
    this.ca = trustedAuthorities(trust.ca);
  }
}
