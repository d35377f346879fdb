import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { buildConnector } from 'undici';
import { parseSubnet, Subnet, subnetMatcher } from './subnets';

/** A set of address ranges (IPv4 and IPv6 CIDRs) outbound requests may not connect to. */
export class AddressDenyList {
  private readonly matches: (address: string) => boolean;

  private constructor(
    subnets: readonly Subnet[],
    /** The ranges as configured, for logs and errors. */
    readonly ranges: readonly string[],
  ) {
    this.matches = subnetMatcher(subnets);
  }

  /**
   * Parses a comma- or space-separated list of CIDRs (`10.0.0.0/8, fd00::/8`); a bare address means that one address.
   * Throws naming the first entry that is not one.
   */
  static parse(text: string): AddressDenyList {
    const ranges = text.split(/[\s,]+/).filter((entry) => entry !== '');
    const subnets = ranges.map((entry) => {
      const subnet = parseSubnet(entry);
      if (!subnet) throw new Error(`"${entry}" is not an IPv4 or IPv6 CIDR`);
      return subnet;
    });
    return new AddressDenyList(subnets, ranges);
  }

  get empty(): boolean {
    return this.ranges.length === 0;
  }

  /** Whether `address` (an IP literal, brackets allowed) is in a denied range; IPv4-mapped IPv6 counts as its IPv4. */
  denies(address: string): boolean {
    return this.matches(address);
  }
}

/** The error a refused connection fails with; checkers and providers turn it into their own short text. */
export class OutboundDeniedError extends Error {
  readonly code = 'EOUTBOUNDDENIED';

  constructor(readonly address: string) {
    super(`Address ${address} is refused by OUTBOUND_DENY`);
    this.name = 'OutboundDeniedError';
  }
}

export function isOutboundDenied(error: unknown): error is { code: 'EOUTBOUNDDENIED'; address: string } {
  const failure = error as { code?: string; cause?: { code?: string } } | null;
  return failure?.code === 'EOUTBOUNDDENIED' || failure?.cause?.code === 'EOUTBOUNDDENIED';
}

/** The denied address of an error from isOutboundDenied. */
export function deniedAddress(error: unknown): string {
  const failure = error as { address?: string; cause?: { address?: string } };
  return failure.address ?? failure.cause?.address ?? '';
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `dns.lookup` that leaves denied addresses out and fails when none is left. The socket connects to exactly the
 * address this returns, so a name that resolves differently later (DNS rebinding) is judged again at that connect.
 * Sockets opened by hand (database drivers) take it as `net.connect`'s `lookup`; an IP literal never reaches a lookup,
 * so it is judged apart (`deny.denies`).
 */
export function guardedLookup(deny: AddressDenyList) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, options.all ? [] : '');
      const allowed = addresses.filter((entry) => !deny.denies(entry.address));
      if (allowed.length === 0)
        return callback(new OutboundDeniedError(addresses[0]?.address ?? hostname) as NodeJS.ErrnoException, options.all ? [] : '');
      if (options.all) return callback(null, allowed);
      callback(null, allowed[0].address, allowed[0].family);
    });
  };
}

/**
 * OUTBOUND_DENY for a plain socket (`net.connect`, `tls.connect`): an IP literal is judged now and throws
 * OutboundDeniedError; a name gets the guarded lookup to pass as the socket's `lookup` (undefined: nothing is denied).
 */
export function socketLookup(deny: AddressDenyList, host: string): LookupFunction | undefined {
  if (deny.empty) return undefined;
  const literal = host.replace(/^\[|\]$/g, '');
  if (isIP(literal) !== 0 && deny.denies(literal)) throw new OutboundDeniedError(literal);
  return guardedLookup(deny) as LookupFunction;
}

/**
 * undici's connector with OUTBOUND_DENY applied at connection time: an IP literal is judged before connecting and a
 * name through the lookup above. Every request of an Agent built with it is covered, redirects included, since each
 * hop opens (or reuses) a connection through this connector.
 */
export function guardedConnector(deny: AddressDenyList, options: buildConnector.BuildOptions = {}): buildConnector.connector {
  if (deny.empty) return buildConnector(options);
  const base = buildConnector({ ...options, lookup: guardedLookup(deny) } as buildConnector.BuildOptions);
  return (opts, callback) => {
    const host = opts.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) !== 0 && deny.denies(host)) {
      callback(new OutboundDeniedError(host), null);
      return;
    }
    return base(opts, callback);
  };
}

/**
 * One address `hostname` resolves to that OUTBOUND_DENY allows (an IP literal is judged as it is), for checkers that
 * connect to the address themselves (ping, WebSocket, gRPC) so that a later, different answer cannot slip past.
 * Rejects with the lookup's error or an OutboundDeniedError.
 */
export function resolveAllowed(hostname: string, deny: AddressDenyList): Promise<LookupAddress> {
  const host = hostname.replace(/^\[|\]$/g, '');
  const family = isIP(host);
  if (family !== 0) {
    return deny.denies(host) ? Promise.reject(new OutboundDeniedError(host)) : Promise.resolve({ address: host, family });
  }
  return new Promise((resolve, reject) => {
    guardedLookup(deny)(host, { all: true }, (error, addresses) => {
      if (error) return reject(error);
      const [first] = addresses as LookupAddress[];
      if (!first) return reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' }));
      resolve(first);
    });
  });
}
