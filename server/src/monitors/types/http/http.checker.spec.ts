import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AddressDenyList } from '../../../common/outbound';
import type { AppConfig } from '../../../config/config';
import type { CheckTarget } from '../../checkers/checker';
import { describeFailure, HttpChecker, matchesExpectedStatus } from './http.checker';

const config = (deny = '', connectionsPerOrigin = 4) => ({
  outbound: AddressDenyList.parse(deny),
  monitors: { connectionsPerOrigin } as AppConfig['monitors'],
});

function httpTarget(url: string, fields: Partial<CheckTarget<'http'>> = {}): CheckTarget<'http'> {
  return {
    id: 1,
    scope: 'admin',
    type: 'http',
    url,
    method: 'GET',
    headers: {},
    body: null,
    timeout: 5,
    expectedStatus: 200,
    assertions: [],
    ignoreTls: false,
    maxRedirects: 5,
    ...fields,
  };
}

/** A loopback HTTP server with the given handler, counting the connections it accepted. */
async function listen(handler: (request: IncomingMessage, response: ServerResponse) => void, host = '127.0.0.1') {
  const server = createServer(handler);
  const seen = { connections: 0 };
  server.on('connection', () => (seen.connections += 1));
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const url = `http://${host}:${(server.address() as AddressInfo).port}`;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { server, seen, url, close };
}

describe('describeFailure', () => {
  it.each([
    [{ name: 'TimeoutError', message: 'The operation was aborted due to timeout' }, 'Timeout after 5 s'],
    [{ code: 'UND_ERR_HEADERS_TIMEOUT', message: 'Headers Timeout Error' }, 'Timeout after 5 s'],
    [{ code: 'UND_ERR_CONNECT_TIMEOUT', message: 'Connect Timeout Error' }, 'Timeout after 5 s'],
    [{ code: 'ENOTFOUND', message: 'getaddrinfo ENOTFOUND x.invalid' }, 'DNS lookup failed: host not found'],
    [{ message: 'fetch failed', cause: { code: 'EAI_AGAIN' } }, 'DNS lookup failed: host not found'],
    [{ code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:1' }, 'Connection refused'],
    [{ code: 'ECONNRESET', message: 'read ECONNRESET' }, 'Connection reset by the server'],
    [{ code: 'EHOSTUNREACH', message: 'connect EHOSTUNREACH' }, 'Host unreachable'],
    [{ code: 'CERT_HAS_EXPIRED', message: 'certificate has expired' }, 'TLS error: certificate has expired'],
    [{ code: 'ERR_SSL_WRONG_VERSION_NUMBER', message: 'wrong version number' }, 'TLS error: wrong version number'],
    [{ code: 'DEPTH_ZERO_SELF_SIGNED_CERT', message: 'self-signed certificate' }, 'TLS error: self-signed certificate'],
    [{ message: 'something odd' }, 'something odd'],
    [{ code: 'EOUTBOUNDDENIED', address: '10.0.0.7', message: 'x' }, 'Address 10.0.0.7 is refused by OUTBOUND_DENY'],
    [{ message: 'fetch failed', cause: { code: 'EOUTBOUNDDENIED', address: 'fd00::1' } }, 'Address fd00::1 is refused by OUTBOUND_DENY'],
    [{}, 'Request failed'],
    [{ code: 'CERT_HAS_EXPIRED', certificate: { authorizationError: 'CERT_HAS_EXPIRED' } }, 'TLS error: certificate has expired'],
    [{ message: 'x', cause: { certificate: { authorizationError: 'CERT_UNTRUSTED' } } }, 'TLS error: cert untrusted'],
  ])('describes %j as "%s"', (error, text) => {
    expect(describeFailure(error, 5)).toBe(text);
  });
});

describe('HttpChecker connections per origin', () => {
  /** A loopback origin answering after 50 ms, counting its connections and the requests it holds at once. */
  async function origin() {
    const seen = { connections: 0, open: 0, most: 0 };
    const server: Server = createServer((_req, res) => {
      seen.open += 1;
      seen.most = Math.max(seen.most, seen.open);
      setTimeout(() => {
        seen.open -= 1;
        res.end('ok');
      }, 50);
    });
    server.on('connection', () => {
      seen.connections += 1;
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { seen, server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
  }

  it('opens at most CHECK_CONNECTIONS_PER_ORIGIN connections to each origin; further checks wait for one', async () => {
    const origins = [await origin(), await origin()];
    const sut = new HttpChecker(config('', 2));
    try {
      const checks = origins.flatMap(({ url }) => Array.from({ length: 5 }, (_, i) => sut.check(httpTarget(`${url}/${i}`, { id: i }))));
      const results = await Promise.all(checks);
      expect(results.map((r) => r.ok)).toEqual(new Array(10).fill(true));
      expect(origins.map(({ seen }) => [seen.connections, seen.most])).toEqual([
        [2, 2],
        [2, 2],
      ]);
    } finally {
      await sut.close();
      for (const { server } of origins) {
        server.closeAllConnections();
        server.close();
      }
    }
  });
});

describe('HttpChecker', () => {
  const sut = new HttpChecker(config('127.0.0.2/32'));
  let origin: Awaited<ReturnType<typeof listen>>;
  let received: string[];

  beforeAll(async () => {
    received = [];
    origin = await listen((request, response) => {
      received.push(`${request.method} ${request.url}`);
      const path = request.url ?? '/';
      if (path.startsWith('/hops/')) {
        const hops = Number(path.split('/')[2]);
        response.writeHead(302, { location: hops > 1 ? `/hops/${hops - 1}` : '/' }).end();
      } else if (path === '/big') {
        response.writeHead(200, { 'content-type': 'text/plain' }).end('a'.repeat(64 * 1024) + 'b'.repeat(100 * 1024));
      } else if (path === '/json') {
        response.writeHead(503, { 'Content-Type': 'application/json' }).end('{"status":"degraded"}');
      } else {
        response.setHeader('Set-Cookie', ['a=1', 'b=2']);
        response.writeHead(200, { 'X-Answer': '42' }).end('hello');
      }
    });
  });
  afterAll(async () => {
    await sut.close();
    await origin.close();
  });

  it('observes the status and, for header assertions, the headers with lower-case names, repeated ones joined', async () => {
    const result = await sut.check(
      httpTarget(`${origin.url}/`, { assertions: [{ source: 'header', path: 'X-Answer', operator: 'exists' }] }),
    );
    expect(result).toMatchObject({ ok: true, statusCode: 200, error: null });
    expect(result.responseTime).toEqual(expect.any(Number));
    expect(result.observed.statusCode).toBe(200);
    expect(result.observed.headers).toMatchObject({ 'x-answer': '42', 'set-cookie': 'a=1, b=2' });
    expect(result.observed.certificate).toBeUndefined();
  });

  it('leaves the body unread when no assertion reads it, and the headers unmapped', async () => {
    const headers = await sut.check(
      httpTarget(`${origin.url}/`, { assertions: [{ source: 'header', path: 'x-answer', operator: 'eq', value: '42' }] }),
    );
    expect(headers.observed.body).toBeUndefined();
    const none = await sut.check(httpTarget(`${origin.url}/`, { assertions: [{ source: 'status', operator: 'eq', value: 200 }] }));
    expect(none.observed).toEqual({ statusCode: 200 });
  });

  it('keeps the first 64 KiB of the body as text for body and jsonPath assertions, on a connection kept alive', async () => {
    const connectionsBefore = origin.seen.connections;
    const body = await sut.check(httpTarget(`${origin.url}/big`, { assertions: [{ source: 'body', operator: 'contains', value: 'a' }] }));
    expect(body.observed.body).toBe('a'.repeat(64 * 1024));
    const json = await sut.check(
      httpTarget(`${origin.url}/json`, {
        expectedStatus: 5,
        assertions: [{ source: 'jsonPath', path: '$.status', operator: 'eq', value: 'ok' }],
      }),
    );
    expect(json).toMatchObject({ ok: true, statusCode: 503, observed: { body: '{"status":"degraded"}' } });
    expect(origin.seen.connections - connectionsBefore).toBeLessThanOrEqual(1);
  });

  it('reports an unexpected status with what it observed', async () => {
    const result = await sut.check(httpTarget(`${origin.url}/json`));
    expect(result).toMatchObject({
      ok: false,
      statusCode: 503,
      error: 'Unexpected status 503 (expected 200)',
      observed: { statusCode: 503 },
    });
  });

  it.each([
    [2, 2, true, null],
    [1, 2, false, 'Too many redirects (more than 1)'],
    [10, 3, true, null],
    [0, 1, false, 'Redirect not followed (max redirects 0)'],
  ])('with maxRedirects %i, a chain of %i redirects is ok: %s', async (maxRedirects, hops, ok, error) => {
    const result = await sut.check(httpTarget(`${origin.url}/hops/${hops}`, { maxRedirects }));
    expect(result).toMatchObject({ ok, error, statusCode: ok ? 200 : 302 });
  });

  it('accepts a redirect itself when a 3xx is expected and redirects are not followed', async () => {
    const result = await sut.check(httpTarget(`${origin.url}/hops/1`, { maxRedirects: 0, expectedStatus: 3 }));
    expect(result).toMatchObject({ ok: true, statusCode: 302 });
  });

  it('refuses a denied address before connecting, naming it', async () => {
    const denied = await listen((_request, response) => response.end('secret'), '127.0.0.2');
    try {
      const result = await sut.check(httpTarget(`${denied.url}/`));
      expect(result).toMatchObject({
        ok: false,
        statusCode: null,
        responseTime: null,
        error: 'Address 127.0.0.2 is refused by OUTBOUND_DENY',
      });
      expect(denied.seen.connections).toBe(0);
    } finally {
      await denied.close();
    }
  });

  it('reports a closed port as refused', async () => {
    const closed = await listen(() => undefined);
    await closed.close();
    const result = await sut.check(httpTarget(`${closed.url}/`));
    expect(result).toMatchObject({ ok: false, statusCode: null, error: 'Connection refused', observed: {} });
  });
});

describe('matchesExpectedStatus', () => {
  it.each([
    [200, 200, true],
    [200, 201, false],
    [2, 200, true],
    [2, 204, true],
    [2, 299, true],
    [2, 301, false],
    [3, 302, true],
    [4, 404, true],
    [4, 500, false],
    [5, 503, true],
    [404, 404, true],
    [204, 200, false],
  ])('expected %s, got %s → %s', (expected, code, result) => {
    expect(matchesExpectedStatus(expected, code)).toBe(result);
  });
});
