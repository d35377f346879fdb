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
