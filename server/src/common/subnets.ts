import { BlockList, isIPv4, isIPv6 } from 'node:net';

/** One address range: what TRUST_PROXY and OUTBOUND_DENY are lists of. */
export interface Subnet {
  address: string;
  prefix: number;
  family: 'ipv4' | 'ipv6';
}

const MAPPED_PREFIX = 96;

/** `a.b.c.d` inside `::ffff:a.b.c.d`, so an IPv4 client on a dual-stack socket matches IPv4 subnets. */
export function unmapIPv4(address: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  return mapped ? mapped[1] : address;
}

/**
 * An address (`192.0.2.7`, `::1`) or CIDR subnet (`10.0.0.0/8`, `fd00::/8`) as a subnet, or null when it is neither.
 * An IPv4-mapped IPv6 entry is read as its IPv4 range.
 */
export function parseSubnet(entry: string): Subnet | null {
  const [rawAddress, rawPrefix, ...rest] = entry.split('/');
  if (rest.length > 0) return null;
  const address = unmapIPv4(rawAddress);
  const mapped = address !== rawAddress;
  const family = isIPv4(address) ? 'ipv4' : isIPv6(address) ? 'ipv6' : null;
  if (!family) return null;
  const max = family === 'ipv4' ? 32 : 128;
  if (rawPrefix === undefined) return { address, prefix: max, family };
  if (!/^\d{1,3}$/.test(rawPrefix)) return null;
  const prefix = mapped ? Number(rawPrefix) - MAPPED_PREFIX : Number(rawPrefix);
  return prefix >= 0 && prefix <= max ? { address, prefix, family } : null;
}

/** Whether an address (brackets allowed; IPv4-mapped IPv6 counts as its IPv4) lies inside one of the subnets. */
export function subnetMatcher(subnets: readonly Subnet[]): (address: string) => boolean {
  const list = new BlockList();
  for (const { address, prefix, family } of subnets) list.addSubnet(address, prefix, family);
  return (address) => {
    const plain = unmapIPv4(address.replace(/^\[|\]$/g, ''));
    const family = isIPv4(plain) ? 'ipv4' : isIPv6(plain) ? 'ipv6' : null;
    return family !== null && list.check(plain, family);
  };
}
