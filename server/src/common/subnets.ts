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

/** Whether an address (brackets allowed; IPv4-mapped IPv6 in any spelling counts as its IPv4) lies inside one of the subnets. */
export function subnetMatcher(subnets: readonly Subnet[]): (address: string) => boolean {
  const list = new BlockList();
  for (const { address, prefix, family } of subnets) list.addSubnet(address, prefix, family);
  return (address) => {
    const plain = canonicalAddress(address);
    return plain !== null && list.check(plain, isIPv4(plain) ? 'ipv4' : 'ipv6');
  };
}

/**
 * One spelling per address, so rules cannot be passed by writing it another way: brackets and an IPv6 zone dropped,
 * IPv6 in full lower-case hex, and an IPv6 address that carries an IPv4 one (mapped `::ffff:7f00:1`, the deprecated
 * compatible `::7f00:1`) as that IPv4. Null for anything that is not an IP address.
 */
export function canonicalAddress(raw: string): string | null {
  const address = raw.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  if (isIPv4(address)) return address;
  if (!isIPv6(address)) return null;
  const groups = ipv6Groups(address);
  const carriesIPv4 =
    groups.slice(0, 5).every((group) => group === 0) && (groups[5] === 0xffff || (groups[5] === 0 && (groups[6] !== 0 || groups[7] > 1)));
  if (carriesIPv4) return [groups[6] >> 8, groups[6] & 0xff, groups[7] >> 8, groups[7] & 0xff].join('.');
  return groups.map((group) => group.toString(16)).join(':');
}

/** The eight 16-bit groups of a valid IPv6 address (a trailing dotted IPv4 part read as two groups). */
function ipv6Groups(address: string): number[] {
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  const hex = dotted
    ? `${address.slice(0, dotted.index)}${((+dotted[1] << 8) | +dotted[2]).toString(16)}:${((+dotted[3] << 8) | +dotted[4]).toString(16)}`
    : address;
  const [head, tail] = hex.split('::');
  const parse = (part: string | undefined) => (part ? part.split(':').map((group) => parseInt(group, 16)) : []);
  const front = parse(head);
  const back = parse(tail);
  return tail === undefined ? front : [...front, ...new Array<number>(8 - front.length - back.length).fill(0), ...back];
}
