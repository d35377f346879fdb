import { parseSubnet, Subnet } from '../common/subnets';

/**
 * Which peers may tell us the client's address through `X-Forwarded-For`. Off by default: with Docker port
 * publishing every client looks "private", so trusting private ranges would let anyone pick their address.
 */
export type TrustProxy =
  | { kind: 'off' }
  /** Trust exactly this many proxies in front of Vigil, whatever their address. */
  | { kind: 'hops'; hops: number }
  /** Trust peers inside these subnets (each address of the chain that is inside one is skipped). */
  | { kind: 'subnets'; subnets: Subnet[] };

/** Names accepted as shorthand for common proxy ranges (the same names Express uses). */
const NAMED_RANGES: Record<string, string[]> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

const MAX_HOPS = 10;

/**
 * Parses `TRUST_PROXY`: empty, `0`, `false` or `off` = never trust proxy headers; a number 1–10 = that many proxies;
 * otherwise a comma-separated list of addresses, CIDR subnets or `loopback`/`linklocal`/`uniquelocal`.
 * Returns an error text naming the bad part, or the setting.
 */
export function parseTrustProxy(raw: string | undefined): TrustProxy | { error: string } {
  const value = raw?.trim().toLowerCase() ?? '';
  if (value === '' || value === '0' || value === 'false' || value === 'off') return { kind: 'off' };
  if (value === 'true') {
    return { error: 'TRUST_PROXY=true would let any client choose its address; give the number of proxies or their addresses' };
  }
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    if (hops > MAX_HOPS) return { error: `TRUST_PROXY must be a number of proxies from 0 to ${MAX_HOPS} (got "${raw}")` };
    return { kind: 'hops', hops };
  }
  const subnets: Subnet[] = [];
  for (const entry of value.split(',').map((part) => part.trim())) {
    const parsed = (NAMED_RANGES[entry] ?? [entry]).map(parseSubnet);
    if (entry === '' || parsed.some((item) => item === null)) {
      return {
        error: `TRUST_PROXY must be a number of proxies or a comma-separated list of addresses, CIDR subnets, loopback, linklocal or uniquelocal (bad entry "${entry}")`,
      };
    }
    subnets.push(...(parsed as Subnet[]));
  }
  return { kind: 'subnets', subnets };
}
