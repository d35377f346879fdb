import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AddressDenyList } from '../common/outbound';
import type { AppConfig } from '../config/config';
import { describeFailure, HttpChecker } from './http-checker';
import { HTTP_TARGET_EXTRAS } from './monitor-fixtures.testing';

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
    const sut = new HttpChecker({
      outboundDeny: AddressDenyList.parse(''),
      monitors: { connectionsPerOrigin: 2 } as AppConfig['monitors'],
    });
    try {
      const checks = origins.flatMap(({ url }) =>
        Array.from({ length: 5 }, (_, i) =>
          sut.check({
            ...HTTP_TARGET_EXTRAS,
            id: i,
            url: `${url}/${i}`,
            method: 'GET',
            headers: {},
            body: null,
            timeout: 5,
            expectedStatus: 200,
          }),
        ),
      );
      const results = await Promise.all(checks);
      expect(results.map((r) => r.ok)).toEqual(new Array(10).fill(true));
      expect(origins.map(({ seen }) => [seen.connections, seen.most])).toEqual([
        [2, 2],
        [2, 2],
      ]);
    } finally {
      await sut.onModuleDestroy();
      for (const { server } of origins) {
        server.closeAllConnections();
        server.close();
      }
    }
  });
});
