import type { IncomingHttpHeaders } from 'node:http';
import type { TrustProxy } from '../config/trust-proxy';
import { subnetMatcher, unmapIPv4 } from './subnets';

/** Whether the peer at `hop` (0 = the socket's own peer) is a proxy whose `X-Forwarded-For` we believe. */
export type TrustFunction = (address: string, hop: number) => boolean;

/** Longest address kept: an untrusted header entry is attacker text and ends up as a limiter key. */
const MAX_ADDRESS_LENGTH = 64;

export function trustFunction(setting: TrustProxy): TrustFunction {
  if (setting.kind === 'off') return () => false;
  if (setting.kind === 'hops') return (_address, hop) => hop < setting.hops;
  return subnetMatcher(setting.subnets);
}

/**
 * The client's address by the same rule Express applies to `req.ip` (proxy-addr): walk from the socket's peer back
 * through `X-Forwarded-For` (rightmost first) while each hop is a trusted proxy; the first untrusted one is the client.
 */
export function resolveClientAddress(
  remoteAddress: string | undefined,
  forwardedFor: string | string[] | undefined,
  trust: TrustFunction,
): string {
  const header = Array.isArray(forwardedFor) ? forwardedFor.join(',') : (forwardedFor ?? '');
  const chain = [remoteAddress ?? '', ...header.split(',').map((part) => part.trim()).filter(Boolean).reverse()];
  let index = 0;
  while (index < chain.length - 1 && trust(chain[index], index)) index += 1;
  return normalizeAddress(chain[index]);
}

/** One spelling per address, so `::ffff:10.0.0.1` and `10.0.0.1` share a limiter bucket. */
export function normalizeAddress(address: string | undefined): string {
  const plain = unmapIPv4((address ?? '').trim()).toLowerCase();
  return plain === '' ? 'unknown' : plain.slice(0, MAX_ADDRESS_LENGTH);
}

/** A socket.io handshake's client address, by the same rule as HTTP requests. */
export function handshakeAddress(
  handshake: { address: string; headers: IncomingHttpHeaders },
  trust: TrustFunction,
): string {
  return resolveClientAddress(handshake.address, handshake.headers['x-forwarded-for'], trust);
}
