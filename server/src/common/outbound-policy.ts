import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import {
  AddressDenyList,
  AddressGuard,
  isLoopbackLike,
  OutboundDeniedError,
  OutboundGuards,
  OutboundScope,
  OutboundRule,
  outboundRefusal,
  resolveAllowed,
} from './outbound';
import { canonicalAddress } from './subnets';

/** A service of Vigil's own (its HTTP listener, its database, its Redis) as configured: a host and a port. */
export interface OwnEndpoint {
  host: string;
  port: number;
}

interface OwnEntry {
  host: string;
  /** Canonical addresses the host stands for (resolved names included). */
  addresses: Set<string>;
  /** The host is this machine: every loopback, unspecified and interface address of it counts on that port. */
  local: boolean;
}

const LOCAL_ADDRESSES_TTL_MS = 10_000;

/**
 * Vigil's own services, which no check may reach whoever asks: compared on the address actually connected to and the
 * port. A service on this machine is reached through any of its addresses (`localhost`, `127.0.0.2`, `0.0.0.0`, `::`,
 * `::ffff:127.0.0.1`, a LAN address), so all of them count for its port. Names are resolved at start and every few
 * minutes (`refresh`).
 */
export class OwnServices {
  private readonly byPort = new Map<number, OwnEntry[]>();
  private local: { at: number; addresses: Set<string> } = { at: 0, addresses: new Set() };

  constructor(endpoints: readonly OwnEndpoint[]) {
    for (const { host, port } of endpoints) {
      const plain = host.replace(/^\[|\]$/g, '').toLowerCase();
      const literal = canonicalAddress(plain);
      const entry: OwnEntry = {
        host: plain,
        addresses: new Set(literal ? [literal] : []),
        local: literal ? this.isLocal(literal) : plain === 'localhost' || plain.endsWith('.localhost'),
      };
      this.byPort.set(port, [...(this.byPort.get(port) ?? []), entry]);
    }
  }

  watchesPort(port: number): boolean {
    return this.byPort.has(port);
  }

  /** Whether a connection to `address` on `port` would reach one of Vigil's own services. */
  covers(address: string, port: number): boolean {
    const entries = this.byPort.get(port);
    if (!entries) return false;
    const plain = canonicalAddress(address);
    if (plain === null) return false;
    return entries.some((entry) => entry.addresses.has(plain) || (entry.local && this.isLocal(plain)));
  }

  /** Resolves the services named by a host name, so their addresses are known; a name that fails keeps what it had. */
  async refresh(): Promise<void> {
    const named = [...this.byPort.values()].flat().filter((entry) => isIP(entry.host) === 0);
    await Promise.all(
      named.map(async (entry) => {
        const found = await lookup(entry.host, { all: true }).catch(() => null);
        if (!found) return;
        const addresses = found.map(({ address }) => canonicalAddress(address)).filter((address) => address !== null);
        entry.addresses = new Set(addresses);
        entry.local = entry.local || addresses.some((address) => this.isLocal(address));
      }),
    );
  }

  /** Loopback, unspecified, or an address of one of this machine's interfaces (read again every few seconds). */
  private isLocal(address: string): boolean {
    if (isLoopbackLike(address)) return true;
    if (Date.now() - this.local.at > LOCAL_ADDRESSES_TTL_MS) {
      const addresses = Object.values(networkInterfaces())
        .flat()
        .map((entry) => entry && canonicalAddress(entry.address))
        .filter((entry): entry is string => typeof entry === 'string');
      this.local = { at: Date.now(), addresses: new Set(addresses) };
    }
    return this.local.addresses.has(address);
  }
}

/**
 * Who may connect where: every check and delivery is refused Vigil's own services and OUTBOUND_DENY's ranges; checks
 * of monitors a `user` saved (and their tests) also USER_OUTBOUND_DENY's, by default loopback and the unspecified
 * addresses, since a user who may create a monitor may read back what it reaches.
 */
export class OutboundPolicy implements OutboundGuards {
  private readonly guards: Record<OutboundScope, AddressGuard>;

  constructor(
    deny: AddressDenyList,
    userDeny: AddressDenyList,
    readonly own: OwnServices,
  ) {
    const judge = (address: string, port: number, lists: AddressDenyList[]): OutboundRule | null => {
      if (own.covers(address, port)) return 'OWN_SERVICE';
      for (const list of lists) if (list.denies(address)) return list.rule;
      return null;
    };
    const guard = (lists: AddressDenyList[]): AddressGuard => ({
      refusal: (address, port) => judge(address, port, lists),
      watchesPort: (port) => own.watchesPort(port),
    });
    this.guards = { admin: guard([deny]), user: guard([deny, userDeny]) };
  }

  /** A policy that refuses nothing (specs of a checker on its own). */
  static open(): OutboundPolicy {
    return new OutboundPolicy(AddressDenyList.parse(''), AddressDenyList.parse('', 'USER_OUTBOUND_DENY'), new OwnServices([]));
  }

  guard(scope: OutboundScope): AddressGuard {
    return this.guards[scope];
  }

  /**
   * Judges a target before it is saved or tested: an IP literal as it is, a name on what it resolves to now (refused
   * when every address is; a name that does not resolve is left to the check). Checks judge again at connect time.
   */
  refusal(scope: OutboundScope, host: string, port: number): Promise<OutboundDeniedError | null> {
    return resolveAllowed(host, this.guard(scope), port).then(
      () => null,
      (error: unknown) => outboundRefusal(error),
    );
  }
}
