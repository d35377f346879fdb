import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { buildConnector } from 'undici';
import { parseSubnet, Subnet, subnetMatcher } from './subnets';

/**
 * Why a connection is refused: a configured deny list (named by its setting), or the target being one of Vigil's own
 * services (its database, its Redis, its own listener), which no monitor may reach.
 */
export type OutboundRule = 'OUTBOUND_DENY' | 'USER_OUTBOUND_DENY' | 'OWN_SERVICE';

/** Whose rules a check follows: those of an admin, or those of a `user` (USER_OUTBOUND_DENY on top). */
export type OutboundScope = 'admin' | 'user';

/** The rules a role's saves follow: a `viewer` saves nothing, but would get a `user`'s stricter rules. */
export const outboundScopeOf = (role: 'admin' | 'user' | 'viewer'): OutboundScope => (role === 'admin' ? 'admin' : 'user');

/** What judges the addresses a check or delivery connects to. */
export interface AddressGuard {
  /** The rule refusing a connection to `address` on `port` (0: no port, as for ICMP), or null when it is allowed. */
  refusal(address: string, port: number): OutboundRule | null;
  /** Whether a refusal can depend on the port (own services listen on a few ports; deny lists ignore ports). */
  watchesPort(port: number): boolean;
}

/** The guard for each scope: an OutboundPolicy, or in specs one AddressDenyList standing for every scope. */
export interface OutboundGuards {
  guard(scope: OutboundScope): AddressGuard;
}

/** The unspecified addresses (`0.0.0.0`, `::`, all of `0.0.0.0/8` on Linux) reach this machine, as loopback does. */
const UNSPECIFIED = subnetMatcher([parseSubnet('0.0.0.0/8')!, parseSubnet('::/128')!]);
const LOOPBACK = subnetMatcher([parseSubnet('127.0.0.0/8')!, parseSubnet('::1/128')!]);

/** Whether a connection to `address` lands on this machine's loopback (unspecified addresses included). */
export function isLoopbackLike(address: string): boolean {
  return LOOPBACK(address) || UNSPECIFIED(address);
}

/** A set of address ranges (IPv4 and IPv6 CIDRs) outbound requests may not connect to. */
export class AddressDenyList implements AddressGuard, OutboundGuards {
  private readonly matches: (address: string) => boolean;
  /** Whether the list refuses loopback, and so the unspecified addresses that reach it. */
  private readonly deniesLoopback: boolean;

  private constructor(
    subnets: readonly Subnet[],
    /** The ranges as configured, for logs and errors. */
    readonly ranges: readonly string[],
    /** The setting this list comes from, named in refusals. */
    readonly rule: OutboundRule,
  ) {
    this.matches = subnetMatcher(subnets);
    this.deniesLoopback = this.matches('127.0.0.1') || this.matches('::1');
  }

  /**
   * Parses a comma- or space-separated list of CIDRs (`10.0.0.0/8, fd00::/8`); a bare address means that one address,
   * and `none` the empty list. Throws naming the first entry that is not one.
   */
  static parse(text: string, rule: OutboundRule = 'OUTBOUND_DENY'): AddressDenyList {
    const ranges = text.trim().toLowerCase() === 'none' ? [] : text.split(/[\s,]+/).filter((entry) => entry !== '');
    const subnets = ranges.map((entry) => {
      const subnet = parseSubnet(entry);
      if (!subnet) throw new Error(`"${entry}" is not an IPv4 or IPv6 CIDR`);
      return subnet;
    });
    return new AddressDenyList(subnets, ranges, rule);
  }

  get empty(): boolean {
    return this.ranges.length === 0;
  }

  /**
   * Whether `address` (an IP literal, brackets allowed) is in a denied range. IPv4 inside IPv6 counts as its IPv4 and
   * an unspecified address as loopback, since connecting to `0.0.0.0` or `::` reaches this machine.
   */
  denies(address: string): boolean {
    return this.matches(address) || (this.deniesLoopback && UNSPECIFIED(address));
  }

  refusal(address: string): OutboundRule | null {
    return this.denies(address) ? this.rule : null;
  }

  watchesPort(): boolean {
    return false;
  }

  guard(): AddressGuard {
    return this;
  }
}

/** The error a refused connection fails with; checkers and providers turn it into their own short text. */
export class OutboundDeniedError extends Error {
  readonly code = 'EOUTBOUNDDENIED';

  constructor(
    readonly address: string,
    readonly rule: OutboundRule = 'OUTBOUND_DENY',
    readonly port = 0,
  ) {
    super(refusalText(address, rule, port));
    this.name = 'OutboundDeniedError';
  }
}

function refusalText(address: string, rule: OutboundRule, port: number): string {
  if (rule !== 'OWN_SERVICE') return `Address ${address} is refused by ${rule}`;
  const host = address.includes(':') ? `[${address}]` : address;
  return `Address ${port ? `${host}:${port}` : host} is Vigil's own service (its database, Redis or server) and is never checked`;
}

export function isOutboundDenied(error: unknown): error is OutboundDeniedError {
  return outboundRefusal(error) !== null;
}

/** The OutboundDeniedError behind an error (drivers wrap it as their cause), or null. */
export function outboundRefusal(error: unknown): OutboundDeniedError | null {
  const failure = error as { code?: string; cause?: { code?: string } } | null;
  if (failure?.code === 'EOUTBOUNDDENIED') return failure as OutboundDeniedError;
  if (failure?.cause?.code === 'EOUTBOUNDDENIED') return failure.cause as OutboundDeniedError;
  return null;
}

/** The words a check's history or a delivery's error shows for a refused connection, naming the rule. */
export function describeRefusal(error: OutboundDeniedError): string {
  return refusalText(error.address, error.rule ?? 'OUTBOUND_DENY', error.port ?? 0);
}

const DEFAULT_PORTS: Record<string, number> = {
  'http:': 80,
  'https:': 443,
  'ws:': 80,
  'wss:': 443,
  'postgres:': 5432,
  'postgresql:': 5432,
  'redis:': 6379,
  'rediss:': 6379,
};

/** The host (brackets and percent-encoding taken off) and port a URL connects to; null for one without a host. */
export function urlEndpoint(url: string): { host: string; port: number } | null {
  try {
    const parsed = new URL(url);
    if (parsed.hostname === '') return null;
    const host = decodeURIComponent(parsed.hostname).replace(/^\[|\]$/g, '');
    return { host, port: Number(parsed.port) || DEFAULT_PORTS[parsed.protocol] || 0 };
  } catch {
    return null;
  }
}

/** The refusal of an IP literal (brackets allowed) on `port` as an error, or null for an allowed one or a name. */
export function literalRefusal(guard: AddressGuard, host: string, port: number): OutboundDeniedError | null {
  const literal = host.replace(/^\[|\]$/g, '');
  if (isIP(literal) === 0) return null;
  const rule = guard.refusal(literal, port);
  return rule ? new OutboundDeniedError(literal, rule, port) : null;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `dns.lookup` that leaves refused addresses out and fails when none is left. The socket connects to exactly the
 * address this returns, so a name that resolves differently later (DNS rebinding) is judged again at that connect.
 * Sockets opened by hand (database drivers) take it as `net.connect`'s `lookup`; an IP literal never reaches a lookup,
 * so it is judged apart (`literalRefusal`). `port`: the port the socket will connect to.
 */
export function guardedLookup(guard: AddressGuard, port = 0) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, options.all ? [] : '');
      const allowed = addresses.filter((entry) => guard.refusal(entry.address, port) === null);
      if (allowed.length === 0) {
        const first = addresses[0]?.address;
        const refused = first ? new OutboundDeniedError(first, guard.refusal(first, port) ?? 'OUTBOUND_DENY', port) : null;
        return callback((refused ?? new OutboundDeniedError(hostname)) as NodeJS.ErrnoException, options.all ? [] : '');
      }
      if (options.all) return callback(null, allowed);
      callback(null, allowed[0].address, allowed[0].family);
    });
  };
}

/**
 * The guard for a plain socket (`net.connect`, `tls.connect`) to `host` on `port`: an IP literal is judged now and
 * throws OutboundDeniedError; a name gets the guarded lookup to pass as the socket's `lookup`.
 */
export function socketLookup(guard: AddressGuard, host: string, port: number): LookupFunction {
  const refused = literalRefusal(guard, host, port);
  if (refused) throw refused;
  return guardedLookup(guard, port) as LookupFunction;
}

/**
 * undici's connector with the guard applied at connection time: an IP literal is judged before connecting and a
 * name through the lookup above. Every request of an Agent built with it is covered, redirects included, since each
 * hop opens (or reuses) a connection through this connector. A lookup knows no port, so the few ports an own service
 * listens on get a connector of their own.
 */
export function guardedConnector(guard: AddressGuard, options: buildConnector.BuildOptions = {}): buildConnector.connector {
  const connectorFor = (port: number) => buildConnector({ ...options, lookup: guardedLookup(guard, port) } as buildConnector.BuildOptions);
  const base = connectorFor(0);
  const watched = new Map<number, buildConnector.connector>();
  return (opts, callback) => {
    const port = Number(opts.port) || (opts.protocol === 'https:' ? 443 : 80);
    const refused = literalRefusal(guard, opts.hostname, port);
    if (refused) {
      callback(refused, null);
      return;
    }
    if (!guard.watchesPort(port)) return base(opts, callback);
    let connector = watched.get(port);
    if (!connector) watched.set(port, (connector = connectorFor(port)));
    return connector(opts, callback);
  };
}

/**
 * One address `hostname` resolves to that the guard allows on `port` (an IP literal is judged as it is), for
 * checkers that connect to the address themselves (ping, a DNS check's server) so that a later, different answer
 * cannot slip past. Rejects with the lookup's error or an OutboundDeniedError.
 */
export function resolveAllowed(hostname: string, guard: AddressGuard, port = 0): Promise<LookupAddress> {
  const host = hostname.replace(/^\[|\]$/g, '');
  const family = isIP(host);
  if (family !== 0) {
    const refused = literalRefusal(guard, host, port);
    return refused ? Promise.reject(refused) : Promise.resolve({ address: host, family });
  }
  return new Promise((resolve, reject) => {
    guardedLookup(guard, port)(host, { all: true }, (error, addresses) => {
      if (error) return reject(error);
      const [first] = addresses as LookupAddress[];
      if (!first) return reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' }));
      resolve(first);
    });
  });
}
