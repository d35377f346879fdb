import { Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { DnsRecordType } from '@vigil/proto';
import { isOutboundDenied, resolveAllowed, type OutboundGuards, type OutboundScope } from '../../../common/outbound';
import type { Checker, CheckTarget, Endpoint, ProbeResult } from '../../checkers/checker';
import { DnsClient } from './dns-client';
import { describeFailure } from '../../checkers/failure';
import { withinTimeout } from '../../checkers/socket';

/** System resolvers kept for reuse (one per timeout); beyond this the oldest is dropped. */
const RESOLVERS_KEPT = 64;

/**
 * DNS checks: asks `dnsServer` (or the system's resolvers) for the monitor's record type over UDP, within the
 * timeout, and observes each answer as text. NXDOMAIN and an empty answer fail the check; the server's address is
 * judged by the outbound policy (the answers are only read, never connected to). A named server is asked through
 * our own client on a kept socket (DnsClient); the system's resolvers through Node's, which also knows the search
 * domains, options and failover of /etc/resolv.conf.
 */
export class DnsChecker implements Checker<'dns'> {
  readonly type = 'dns';
  private readonly outbound: OutboundGuards;
  private readonly resolvers = new Map<number, Resolver>();
  private readonly client = new DnsClient();

  constructor(deps: { outbound: OutboundGuards }) {
    this.outbound = deps.outbound;
  }

  /** The named server asked (the system's resolvers are this machine's own business; answers are only read). */
  endpoint(target: CheckTarget<'dns'>): Endpoint | null {
    if (!target.dnsServer) return null;
    try {
      return parseDnsServer(target.dnsServer);
    } catch {
      return null;
    }
  }

  async check(target: CheckTarget<'dns'>): Promise<ProbeResult> {
    const checkedAt = new Date();
    const started = performance.now();
    const timeoutMs = target.timeout * 1000;
    try {
      const name = target.dnsRecordType === 'PTR' && isIP(target.hostname) ? reverseName(target.hostname) : target.hostname;
      const server = target.dnsServer ? await this.serverAddress(target.dnsServer, target.scope) : null;
      // Our client times its questions out itself; Node's resolver is raced against the timeout as a safety net.
      const answers = server
        ? await this.client.query(server.address, server.port, target.dnsRecordType, name, timeoutMs)
        : await withinTimeout(query(this.resolver(timeoutMs), target.dnsRecordType, name), timeoutMs);
      const responseTime = Math.round(performance.now() - started);
      const observed = { dnsAnswers: answers };
      if (answers.length === 0) {
        return { ok: false, statusCode: null, responseTime, error: noRecords(target), checkedAt, observed };
      }
      return { ok: true, statusCode: null, responseTime, error: null, checkedAt, observed };
    } catch (error) {
      return { ok: false, statusCode: null, responseTime: null, error: describeDnsFailure(error, target), checkedAt, observed: {} };
    }
  }

  /** `host[:port]` (`1.2.3.4:5353`, `[::1]:53`, a name resolved first) as an address and port; denied addresses refused. */
  private async serverAddress(server: string, scope: OutboundScope): Promise<{ address: string; port: number }> {
    const { host, port } = parseDnsServer(server);
    const { address } = await resolveAllowed(host, this.outbound.guard(scope), port).catch((error: unknown) =>
      Promise.reject(isOutboundDenied(error) ? error : new Error(`DNS server ${host} not found`)),
    );
    return { address, port };
  }

  private resolver(timeoutMs: number): Resolver {
    let resolver = this.resolvers.get(timeoutMs);
    if (!resolver) {
      // One try: the check's timeout is the whole budget, not a budget per retry.
      resolver = new Resolver({ timeout: timeoutMs, tries: 1 });
      if (this.resolvers.size >= RESOLVERS_KEPT) this.resolvers.delete(this.resolvers.keys().next().value as number);
      this.resolvers.set(timeoutMs, resolver);
    }
    return resolver;
  }
}

/** One text per answer record, in the order received. */
async function query(resolver: Resolver, type: DnsRecordType, hostname: string): Promise<string[]> {
  switch (type) {
    case 'A':
      return resolver.resolve4(hostname);
    case 'AAAA':
      return resolver.resolve6(hostname);
    case 'CNAME':
      return resolver.resolveCname(hostname);
    case 'NS':
      return resolver.resolveNs(hostname);
    case 'PTR':
      return resolver.resolvePtr(hostname);
    case 'MX':
      return (await resolver.resolveMx(hostname)).map((mx) => `${mx.priority} ${mx.exchange}`);
    case 'TXT':
      return (await resolver.resolveTxt(hostname)).map((strings) => strings.join(''));
    case 'SOA': {
      const soa = await resolver.resolveSoa(hostname);
      return [`${soa.nsname} ${soa.hostmaster} ${soa.serial} ${soa.refresh} ${soa.retry} ${soa.expire} ${soa.minttl}`];
    }
    case 'SRV':
      return (await resolver.resolveSrv(hostname)).map((srv) => `${srv.priority} ${srv.weight} ${srv.port} ${srv.name}`);
    case 'CAA':
      return (await resolver.resolveCaa(hostname)).map(({ critical, ...rest }) => {
        const [tag, value] = Object.entries(rest)[0] ?? ['', ''];
        return `${critical} ${tag} ${value}`;
      });
  }
}

/** The `in-addr.arpa` / `ip6.arpa` name of an address, so a PTR monitor may be given the address itself. */
function reverseName(address: string): string {
  if (isIP(address) === 4) return `${address.split('.').reverse().join('.')}.in-addr.arpa`;
  const [head, tail = ''] = address.split('::');
  const groups = (part: string) => (part ? part.split(':') : []);
  const all = [...groups(head), ...new Array(8 - groups(head).length - groups(tail).length).fill('0'), ...groups(tail)];
  const nibbles = all.map((group: string) => group.padStart(4, '0')).join('');
  return `${[...nibbles].reverse().join('.')}.ip6.arpa`;
}

function noRecords(target: CheckTarget<'dns'>): string {
  return `No ${target.dnsRecordType} record for ${target.hostname}`;
}

/** c-ares' codes, in the words of the check history; the rest as every socket checker words them. */
function describeDnsFailure(error: unknown, target: CheckTarget<'dns'>): string {
  switch ((error as { code?: string }).code) {
    case 'ENOTFOUND':
      return `NXDOMAIN: ${target.hostname} does not exist`;
    case 'ENODATA':
      return noRecords(target);
    case 'ESERVFAIL':
      return 'SERVFAIL: the DNS server failed to answer';
    case 'EREFUSED':
      return 'REFUSED: the DNS server refused the query';
    case 'ETIMEOUT':
      return `Timeout after ${target.timeout} s`;
    case 'EBADRESP':
    case 'EFORMERR':
    case 'EBADNAME':
      return `Bad DNS query or answer (${(error as Error).message})`;
    default:
      return describeFailure(error, target.timeout);
  }
}

/** `host[:port]` (`1.2.3.4:5353`, `[::1]:53`, `ns.example.com`) as a host and port (53 by default); throws for others. */
export function parseDnsServer(server: string): Endpoint {
  const match =
    /^\[([0-9a-fA-F:.]+)\](?::(\d{1,5}))?$/.exec(server) ??
    (isIP(server) === 6 ? [server, server] : /^([A-Za-z0-9.-]+)(?::(\d{1,5}))?$/.exec(server));
  const port = Number(match?.[2] ?? 53);
  if (!match || port < 1 || port > 65_535) throw new Error(`Invalid DNS server "${server}"`);
  return { host: match[1], port };
}
