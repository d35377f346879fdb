import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AddressDenyList } from '../../../common/outbound';
import type { AppConfig } from '../../../config/config';
import type { CheckTarget } from '../../checkers/checker';
import { HttpChecker } from './http.checker';
import {
  createSelfSignedCertificate,
  createTestAuthority,
  daysFromNow,
  type TestCertificate,
} from '../../checkers/fakes/certificates.testing';
import { startTlsServer, type FakeTlsServer } from '../../checkers/fakes/tls-server.testing';

function httpsTarget(url: string, fields: Partial<CheckTarget<'http'>> = {}): CheckTarget<'http'> {
  return {
    id: 1,
    scope: 'admin',
    type: 'http',
    url,
    method: 'GET',
    headers: { authorization: 'Bearer secret' },
    body: null,
    timeout: 5,
    expectedStatus: 200,
    assertions: [],
    ignoreTls: false,
    maxRedirects: 5,
    ...fields,
  };
}

describe('HttpChecker certificates', () => {
  const authority = createTestAuthority();
  const sut = new HttpChecker(
    { outbound: AddressDenyList.parse(''), monitors: { connectionsPerOrigin: 4 } as AppConfig['monitors'] },
    { ca: [authority.cert] },
  );
  const servers: FakeTlsServer[] = [];
  const requests: string[] = [];

  async function serve(certificate: TestCertificate): Promise<FakeTlsServer> {
    const server = await startTlsServer(certificate, (request, response) => {
      requests.push(`${request.url} ${request.headers.authorization ?? ''}`);
      response.end('ok');
    });
    servers.push(server);
    return server;
  }

  afterAll(async () => {
    await sut.close();
    await Promise.all(servers.map((server) => server.close()));
  });

  it('records the certificate of the connection that answered, read once per connection', async () => {
    const certificate = authority.issue({ validTo: daysFromNow(5) });
    const server = await serve(certificate);
    const first = await sut.check(httpsTarget(`${server.url}/`));
    // The pool takes a moment to see the first connection free again; a check right away would open a second one.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const second = await sut.check(httpsTarget(`${server.url}/again`));
    expect(first).toMatchObject({ ok: true, statusCode: 200, error: null });
    expect(first.observed.certificate).toEqual({
      subject: 'CN=localhost, O=Vigil Tests',
      issuer: 'CN=Vigil Test CA, O=Vigil Tests',
      expiresAt: new Date(Math.floor(certificate.validTo.getTime() / 1000) * 1000),
      fingerprint: certificate.fingerprint,
      authorizationError: null,
    });
    expect(server.handshakes).toBe(1);
    expect(second.observed.certificate).toBe(first.observed.certificate);
  });

  it.each([
    [
      'an expired certificate',
      { validFrom: daysFromNow(-10), validTo: daysFromNow(-1) },
      'CERT_HAS_EXPIRED',
      'TLS error: certificate has expired',
    ],
    [
      'a certificate for another name',
      { altNames: ['other.test'] },
      'ERR_TLS_CERT_ALTNAME_INVALID',
      'TLS error: certificate does not match the host name',
    ],
    ['a certificate not yet valid', { validFrom: daysFromNow(2) }, 'CERT_NOT_YET_VALID', 'TLS error: certificate is not yet valid'],
  ])('fails on %s before sending the request, still recording it', async (_label, options, code, error) => {
    const certificate = authority.issue(options);
    const server = await serve(certificate);
    const sent = requests.length;
    const result = await sut.check(httpsTarget(`${server.url}/refused`));
    expect(result).toMatchObject({ ok: false, statusCode: null, responseTime: null, error });
    expect(result.observed.certificate).toMatchObject({ fingerprint: certificate.fingerprint, authorizationError: code });
    expect(requests.length).toBe(sent);
  });

  it('accepts the same certificates when the monitor ignores TLS errors', async () => {
    for (const certificate of [
      authority.issue({ validFrom: daysFromNow(-10), validTo: daysFromNow(-1) }),
      authority.issue({ altNames: ['other.test'] }),
      createSelfSignedCertificate(),
    ]) {
      const server = await serve(certificate);
      const result = await sut.check(httpsTarget(`${server.url}/`, { ignoreTls: true }));
      expect(result).toMatchObject({ ok: true, statusCode: 200 });
      expect(result.observed.certificate?.fingerprint).toBe(certificate.fingerprint);
      expect(result.observed.certificate?.authorizationError).toEqual(expect.any(String));
    }
  });

  it('refuses a self-signed certificate', async () => {
    const server = await serve(createSelfSignedCertificate());
    const result = await sut.check(httpsTarget(`${server.url}/`));
    expect(result).toMatchObject({
      ok: false,
      error: 'TLS error: self-signed certificate',
      observed: { certificate: { authorizationError: 'DEPTH_ZERO_SELF_SIGNED_CERT' } },
    });
  });

  it('records the certificate of the last hop after a redirect from plain HTTP', async () => {
    const certificate = authority.issue();
    const server = await serve(certificate);
    const plain = createServer((_request, response) => response.writeHead(301, { location: `${server.url}/landed` }).end());
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    try {
      const result = await sut.check(httpsTarget(`http://127.0.0.1:${(plain.address() as AddressInfo).port}/`, { headers: {} }));
      expect(result).toMatchObject({ ok: true, statusCode: 200 });
      expect(result.observed.certificate?.fingerprint).toBe(certificate.fingerprint);
    } finally {
      plain.closeAllConnections();
      plain.close();
    }
  });
});
