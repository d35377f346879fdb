import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { AddressDenyList } from '../../../common/outbound';
import type { CheckTarget } from '../../checkers/checker';
import {
  createSelfSignedCertificate,
  createTestAuthority,
  daysFromNow,
  type CertificateOptions,
} from '../../checkers/fakes/certificates.testing';
import { startTlsServer, type FakeTlsServer } from '../../checkers/fakes/tls-server.testing';
import { TlsChecker } from './tls.checker';

const tlsTarget = (hostname: string, port: number, fields: Partial<CheckTarget<'tls'>> = {}): CheckTarget<'tls'> => ({
  id: 1,
  scope: 'admin',
  type: 'tls',
  hostname,
  port,
  ignoreTls: false,
  timeout: 5,
  assertions: [],
  ...fields,
});

describe('TlsChecker', () => {
  const authority = createTestAuthority();
  const sut = new TlsChecker({ outbound: AddressDenyList.parse('127.0.0.2/32') }, { ca: [authority.cert] });
  const servers: FakeTlsServer[] = [];

  async function serving(options: CertificateOptions) {
    const certificate = authority.issue(options);
    const server = await startTlsServer(certificate);
    servers.push(server);
    return { certificate, server };
  }

  afterAll(() => Promise.all(servers.map((server) => server.close())));

  it('is up after a handshake with a valid certificate, recording it for certificateDays', async () => {
    const { certificate, server } = await serving({ validTo: daysFromNow(5) });
    const result = await sut.check(tlsTarget('localhost', server.port));
    expect(result).toMatchObject({ ok: true, statusCode: null, error: null });
    expect(result.responseTime).toEqual(expect.any(Number));
    expect(result.observed.certificate).toEqual({
      subject: 'CN=localhost, O=Vigil Tests',
      issuer: 'CN=Vigil Test CA, O=Vigil Tests',
      expiresAt: new Date(Math.floor(certificate.validTo.getTime() / 1000) * 1000),
      fingerprint: certificate.fingerprint,
      authorizationError: null,
    });
    const daysLeft = (result.observed.certificate!.expiresAt.getTime() - Date.now()) / 86_400_000;
    expect(daysLeft).toBeGreaterThan(4.9);
    expect(daysLeft).toBeLessThanOrEqual(5);
  });

  it('matches an address against the certificate when the hostname is one (no SNI)', async () => {
    const { server } = await serving({ altNames: ['127.0.0.1'] });
    expect((await sut.check(tlsTarget('127.0.0.1', server.port))).ok).toBe(true);
  });

  it.each([
    ['expired', { validFrom: daysFromNow(-30), validTo: daysFromNow(-1) }, 'CERT_HAS_EXPIRED', 'TLS error: certificate has expired'],
    ['not yet valid', { validFrom: daysFromNow(1) }, 'CERT_NOT_YET_VALID', 'TLS error: certificate is not yet valid'],
    [
      'for another name',
      { altNames: ['other.test'] },
      'ERR_TLS_CERT_ALTNAME_INVALID',
      'TLS error: certificate does not match the host name',
    ],
  ])('fails on a certificate %s unless TLS errors are ignored, recording it either way', async (_label, options, code, error) => {
    const { certificate, server } = await serving(options);
    const strict = await sut.check(tlsTarget('localhost', server.port));
    expect(strict).toMatchObject({
      ok: false,
      error,
      observed: { certificate: { fingerprint: certificate.fingerprint, authorizationError: code } },
    });
    expect(strict.responseTime).toEqual(expect.any(Number));
    const lenient = await sut.check(tlsTarget('localhost', server.port, { ignoreTls: true }));
    expect(lenient).toMatchObject({ ok: true, error: null, observed: { certificate: { authorizationError: code } } });
  });

  it('fails on an untrusted certificate unless TLS errors are ignored', async () => {
    const server = await startTlsServer(createSelfSignedCertificate());
    servers.push(server);
    expect(await sut.check(tlsTarget('localhost', server.port))).toMatchObject({ ok: false, error: 'TLS error: self-signed certificate' });
    expect((await sut.check(tlsTarget('localhost', server.port, { ignoreTls: true }))).ok).toBe(true);
    const untrusting = new TlsChecker({ outbound: AddressDenyList.parse('') });
    const { server: issued } = await serving({});
    expect(await untrusting.check(tlsTarget('localhost', issued.port))).toMatchObject({
      ok: false,
      error: 'TLS error: certificate chain cannot be verified',
    });
  });

  it('reports a closed port as refused and a denied address as refused by OUTBOUND_DENY', async () => {
    const { server } = await serving({});
    await server.close();
    expect(await sut.check(tlsTarget('127.0.0.1', server.port))).toMatchObject({ ok: false, error: 'Connection refused', observed: {} });
    expect(await sut.check(tlsTarget('127.0.0.2', 443))).toMatchObject({
      ok: false,
      error: 'Address 127.0.0.2 is refused by OUTBOUND_DENY',
    });
  });

  it('gives up after the timeout when the server never answers the handshake', async () => {
    const sockets = new Set<Socket>();
    const silent: Server = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const started = Date.now();
      const result = await sut.check(tlsTarget('127.0.0.1', (silent.address() as AddressInfo).port, { timeout: 1 }));
      expect(result).toMatchObject({ ok: false, responseTime: null, error: 'Timeout after 1 s' });
      expect(Date.now() - started).toBeLessThan(2500);
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });
});
