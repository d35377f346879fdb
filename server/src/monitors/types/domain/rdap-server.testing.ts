import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the fake answers for a domain: a record expiring then, a record without expiration (null), or a hostile answer. */
export type FakeDomain = Date | null | 'endless' | 'silent' | 'error';

export interface FakeRdapServer {
  /** The bootstrap file's address (RDAP_BOOTSTRAP_URL), listing this server as the registry of `tlds`. */
  bootstrapUrl: string;
  /** Domains it knows, by ASCII name; any other is answered 404. Change them to change the next lookups' answers. */
  domains: Map<string, FakeDomain>;
  /** Paths asked for, in order (`/dns.json`, `/rdap/domain/example.test`). */
  requests: string[];
  /** Served in place of the bootstrap file when set ('endless': a stream that never ends). */
  bootstrapOverride: string | 'endless' | null;
  close(): Promise<void>;
}

/**
 * An RDAP registry and bootstrap file on 127.0.0.1 (RFC 9224, RFC 9083): the bootstrap names this server for `tlds`,
 * `/rdap/domain/<name>` answers from `domains`. Hostile answers: an endless body, or none at all.
 */
export async function startRdapServer(tlds: string[] = ['test']): Promise<FakeRdapServer> {
  const requests: string[] = [];
  const domains = new Map<string, FakeDomain>();
  let base = '';
  const fake: FakeRdapServer = {
    bootstrapUrl: '',
    domains,
    requests,
    bootstrapOverride: null,
    close: () => Promise.resolve(),
  };
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    requests.push(path);
    if (path === '/dns.json') {
      if (fake.bootstrapOverride === 'endless') return endless(res);
      const bootstrap = { version: '1.0', publication: new Date().toISOString(), services: [[tlds, [`${base}/rdap/`]]] };
      return json(res, 200, fake.bootstrapOverride ?? JSON.stringify(bootstrap));
    }
    const name = /^\/rdap\/domain\/([^/]+)$/.exec(path)?.[1]?.toLowerCase();
    const answer = name === undefined ? undefined : domains.get(name);
    if (name === undefined || answer === undefined) return json(res, 404, JSON.stringify({ errorCode: 404, title: 'Not Found' }));
    if (answer === 'silent') return;
    if (answer === 'endless') return endless(res);
    if (answer === 'error') return json(res, 503, JSON.stringify({ errorCode: 503, title: 'Unavailable' }));
    const events = [{ eventAction: 'registration', eventDate: '2001-02-03T04:05:06Z' }];
    if (answer) events.push({ eventAction: 'expiration', eventDate: answer.toISOString() });
    json(res, 200, JSON.stringify({ objectClassName: 'domain', ldhName: name, status: ['active'], events }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.bootstrapUrl = `${base}/dns.json`;
  fake.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}

function json(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { 'content-type': 'application/rdap+json' }).end(body);
}

/** A JSON body that never ends, written as fast as the client reads, until it hangs up. */
function endless(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/rdap+json' });
  const chunk = Buffer.from(`{"events":[${'{"eventAction":"last changed","eventDate":"2020-01-01T00:00:00Z"},'.repeat(256)}`);
  let open = true;
  res.on('close', () => (open = false));
  const pump = () => {
    while (open && res.write(chunk));
    if (open) res.once('drain', pump);
  };
  pump();
}
