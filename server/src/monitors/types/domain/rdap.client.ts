import { Agent, type Dispatcher, interceptors, request } from 'undici';
import { guardedConnector, type OutboundGuards, type OutboundScope } from '../../../common/outbound';
import { ProbeFailure } from '../../checkers/failure';
import { DailyCache } from './daily-cache';

const DAY_MS = 86_400_000;
/** IANA's file is about 60 KiB; a bootstrap beyond this is not one. */
export const BOOTSTRAP_MAX_BYTES = 1024 * 1024;
/** A domain's RDAP record is a few KiB; a registry sending more is cut off. */
export const RECORD_MAX_BYTES = 256 * 1024;
/** Registries may redirect (to a registrar's server, RFC 7480 §5.2); a few hops at most. */
const MAX_REDIRECTS = 3;
/** Domains and bootstraps kept per instance at most. */
const CACHE_CAPACITY = 10_000;

/** What a registry says of one domain: its expiration date (null when it gives none), or that it does not know it. */
export type Registration = { found: true; registry: string; expiresAt: Date | null } | { found: false; registry: string };

/** The registries' base URLs by domain suffix (`com`, `co.uk`), as the bootstrap file lists them (RFC 9224 §4). */
type Bootstrap = Map<string, string[]>;

/**
 * Reads domain registrations over RDAP: the registry is found in the bootstrap file for the domain's longest listed
 * suffix, then `<base>domain/<name>` is asked. The bootstrap file and each domain's answer (found or not) are kept a
 * day, so a domain is looked up at most once a day per instance and scope. Each scope connects through its own guard.
 */
export class RdapClient {
  private readonly agents: Record<OutboundScope, Agent>;
  private readonly dispatchers: Record<OutboundScope, Dispatcher>;
  private readonly bootstraps: DailyCache<Bootstrap>;
  private readonly registrations: DailyCache<Registration>;

  constructor(
    private readonly bootstrapUrl: string,
    outbound: OutboundGuards,
    now: () => number = Date.now,
  ) {
    const agent = (scope: OutboundScope) => new Agent({ connect: guardedConnector(outbound.guard(scope)), keepAliveTimeout: 10_000 });
    this.agents = { admin: agent('admin'), user: agent('user') };
    const redirecting = (scope: OutboundScope) => this.agents[scope].compose(interceptors.redirect({ maxRedirections: MAX_REDIRECTS }));
    this.dispatchers = { admin: redirecting('admin'), user: redirecting('user') };
    this.bootstraps = new DailyCache(DAY_MS, 2, now);
    this.registrations = new DailyCache(DAY_MS, CACHE_CAPACITY, now);
  }

  /** The registration of `domain` (ASCII, lower case, no trailing dot); rejects with the lookup's failure. */
  async registration(domain: string, scope: OutboundScope, signal: AbortSignal): Promise<Registration> {
    const bootstrap = await untilAborted(
      this.bootstraps.get(scope, () => this.loadBootstrap(scope, signal)),
      signal,
    );
    const base = registryOf(bootstrap, domain);
    return untilAborted(
      this.registrations.get(`${scope} ${domain}`, () => this.lookUp(base, domain, scope, signal)),
      signal,
    );
  }

  async close(): Promise<void> {
    await Promise.allSettled(Object.values(this.agents).map((agent) => agent.close()));
  }

  private async loadBootstrap(scope: OutboundScope, signal: AbortSignal): Promise<Bootstrap> {
    const { statusCode, text } = await this.fetch(this.bootstrapUrl, scope, signal, BOOTSTRAP_MAX_BYTES, 'RDAP bootstrap file');
    if (statusCode !== 200) throw new ProbeFailure(`The RDAP bootstrap file ${this.bootstrapUrl} answered HTTP ${statusCode}`);
    const bootstrap = parseBootstrap(text);
    if (!bootstrap) throw new ProbeFailure(`The RDAP bootstrap file ${this.bootstrapUrl} is not a domain bootstrap (RFC 9224)`);
    return bootstrap;
  }

  private async lookUp(base: string, domain: string, scope: OutboundScope, signal: AbortSignal): Promise<Registration> {
    const registry = new URL(base).host;
    const { statusCode, text } = await this.fetch(new URL(`domain/${domain}`, base).href, scope, signal, RECORD_MAX_BYTES, 'RDAP answer');
    if (statusCode === 404) return { found: false, registry };
    if (statusCode !== 200) throw new ProbeFailure(`The RDAP service ${registry} answered HTTP ${statusCode} for ${domain}`, statusCode);
    let record: unknown;
    try {
      record = JSON.parse(text);
    } catch {
      throw new ProbeFailure(`The RDAP service ${registry} answered with something other than JSON for ${domain}`);
    }
    return { found: true, registry, expiresAt: expirationOf(record) };
  }

  /** One GET with the body read up to `limit` bytes: a longer one (an endless stream) fails, named. */
  private async fetch(url: string, scope: OutboundScope, signal: AbortSignal, limit: number, what: string) {
    const response = await request(url, {
      dispatcher: this.dispatchers[scope],
      signal,
      headers: { accept: 'application/rdap+json, application/json', 'user-agent': 'Vigil-Monitor/1.0' },
    });
    const tooLarge = () => new ProbeFailure(`The ${what} from ${new URL(url).host} is larger than ${limit / 1024} KiB`);
    if (Number(response.headers['content-length']) > limit) {
      response.body.destroy();
      throw tooLarge();
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limit) {
        response.body.destroy();
        throw tooLarge();
      }
      chunks.push(chunk);
    }
    return { statusCode: response.statusCode, text: Buffer.concat(chunks).toString('utf8') };
  }
}

/** The bootstrap's services by suffix; null when the text is not one. Malformed entries are skipped. */
export function parseBootstrap(text: string): Bootstrap | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  const services = (parsed as { services?: unknown } | null)?.services;
  if (!Array.isArray(services)) return null;
  const bootstrap: Bootstrap = new Map();
  for (const service of services) {
    if (!Array.isArray(service) || !Array.isArray(service[0]) || !Array.isArray(service[1])) continue;
    const urls = (service[1] as unknown[]).filter((url): url is string => typeof url === 'string' && /^https?:\/\//i.test(url));
    if (urls.length === 0) continue;
    // HTTPS first, as RFC 9224 §3 asks when a service offers both.
    const ordered = [...urls.filter((url) => /^https:/i.test(url)), ...urls.filter((url) => /^http:/i.test(url))];
    for (const suffix of service[0] as unknown[]) {
      if (typeof suffix === 'string') bootstrap.set(suffix.toLowerCase(), ordered.map(withSlash));
    }
  }
  return bootstrap;
}

/** The base URL of the registry for the domain's longest listed suffix; a named failure when its TLD has none. */
export function registryOf(bootstrap: Bootstrap, domain: string): string {
  const labels = domain.split('.');
  for (let start = 0; start < labels.length; start++) {
    const urls = bootstrap.get(labels.slice(start).join('.'));
    if (urls) return urls[0];
  }
  throw new ProbeFailure(`No RDAP service for .${labels[labels.length - 1]} in the bootstrap file: its registry offers no RDAP`);
}

/** The date of the record's `expiration` event (RFC 9083 §4.5); null when there is none or it is not a date. */
export function expirationOf(record: unknown): Date | null {
  const events = (record as { events?: unknown } | null)?.events;
  if (!Array.isArray(events)) return null;
  for (const event of events) {
    const { eventAction, eventDate } = (event ?? {}) as { eventAction?: unknown; eventDate?: unknown };
    if (typeof eventAction !== 'string' || eventAction.toLowerCase() !== 'expiration' || typeof eventDate !== 'string') continue;
    const date = new Date(eventDate);
    if (!Number.isNaN(date.getTime())) return date;
  }
  return null;
}

const withSlash = (url: string): string => (url.endsWith('/') ? url : `${url}/`);

/** A shared load awaited by one check: it stops waiting at its own deadline even if the load goes on for another. */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const abort = () => reject(signal.reason);
    signal.addEventListener('abort', abort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort));
  });
}
