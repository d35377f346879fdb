import type { IncomingHttpHeaders } from 'node:http';
import type { TrustProxy } from '../config/trust-proxy';
import { subnetMatcher, unmapIPv4 } from './subnets';

/** Whether the peer at `hop` (0 = the socket's own peer) is a proxy whose `X-Forwarded-For` we believe. */
export type TrustFunction = (address: string, hop: number) => boolean;

/** Longest address kept: an untrusted header entry is attacker text and ends up as a limiter key. */
const MAX_ADDRESS_LENGTH = 64;

/** The `trust proxy` function Express walks `X-Forwarded-For` with (rightmost hop first) to find `req.ip`. */
export function trustFunction(setting: TrustProxy): TrustFunction {
  if (setting.kind === 'off') return () => false;
  if (setting.kind === 'hops') return (_address, hop) => hop < setting.hops;
  return subnetMatcher(setting.subnets);
}

/** One spelling per address, so `::ffff:10.0.0.1` and `10.0.0.1` share a limiter bucket. */
export function normalizeAddress(address: string | undefined): string {
  const plain = unmapIPv4((address ?? '').trim()).toLowerCase();
  return plain === '' ? 'unknown' : plain.slice(0, MAX_ADDRESS_LENGTH);
}

/**
 * The caller's address as Express finds `req.ip` (proxy-addr's walk), for routes answered before Express: the socket's
 * peer, then `X-Forwarded-For` from its right end for as long as `trust` vouches for the hop before.
 */
export function clientAddress(
  req: { headers: IncomingHttpHeaders; socket?: { remoteAddress?: string } },
  trust: TrustFunction,
): string | undefined {
  const peer = req.socket?.remoteAddress;
  const raw = req.headers['x-forwarded-for'];
  const header = Array.isArray(raw) ? raw.join(',') : raw;
  if (!header || peer === undefined || !trust(peer, 0)) return peer;
  const hops = forwardedHops(header);
  let address = peer;
  for (let hop = 0; hop < hops.length; hop += 1) {
    address = hops[hop];
    if (hop + 1 === hops.length || !trust(address, hop + 1)) break;
  }
  return address;
}

/**
 * The caller of a socket.io connection, by the same walk and normalised as `ClientIp`: the peer of the connection
 * and the headers of the request that opened it.
 */
export function handshakeAddress(handshake: { address: string; headers: IncomingHttpHeaders }, trust: TrustFunction): string {
  return normalizeAddress(clientAddress({ headers: handshake.headers, socket: { remoteAddress: handshake.address } }, trust));
}

/** `X-Forwarded-For`'s addresses, the nearest (rightmost) first; spaces and empty entries skipped (as `forwarded`). */
function forwardedHops(header: string): string[] {
  const hops: string[] = [];
  for (const entry of header.split(',').reverse()) {
    const address = entry.replace(/^ +| +$/g, '');
    if (address !== '') hops.push(address);
  }
  return hops;
}
