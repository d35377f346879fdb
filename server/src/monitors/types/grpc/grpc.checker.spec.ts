import { createServer, type Server } from 'node:net';
import { AddressDenyList } from '../../../common/outbound';
import type { CheckTarget } from '../../checkers/checker';
import { encodeHealthResponse, grpcFrame, GrpcChecker, judge, servingStatusOf } from './grpc.checker';
import { FakeGrpcHealthServer, startGrpcHealthServer } from '../../checkers/fakes/grpc-health-server.testing';
import { createSelfSignedCertificate, daysFromNow } from '../../checkers/fakes/certificates.testing';

const target = (port: number, fields: Partial<CheckTarget<'grpc'>> = {}): CheckTarget<'grpc'> => ({
  id: 1,
  scope: 'admin',
  type: 'grpc',
  hostname: '127.0.0.1',
  port,
  grpcService: '',
  tls: false,
  ignoreTls: false,
  timeout: 2,
  assertions: [],
  ...fields,
});

async function listenRaw(onConnection: (socket: import('node:net').Socket) => void): Promise<{ server: Server; port: number }> {
  const server = createServer(onConnection);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as { port: number }).port };
}

const openSockets = () => process.getActiveResourcesInfo().filter((kind) => kind === 'TCPSocketWrap' || kind === 'TLSWrap').length;

describe('GrpcChecker', () => {
  const sut = new GrpcChecker({ outbound: AddressDenyList.parse('') });
  let plain: FakeGrpcHealthServer;
  let secure: FakeGrpcHealthServer;
  const certificate = createSelfSignedCertificate({ validTo: daysFromNow(5) });

  beforeAll(async () => {
    plain = await startGrpcHealthServer();
    secure = await startGrpcHealthServer({ tls: certificate });
  });
  afterAll(async () => {
    await plain.close();
    await secure.close();
  });

  it('is up when the server as a whole is SERVING, with the status name as the body', async () => {
    const result = await sut.check(target(plain.port));
    expect(result).toMatchObject({ ok: true, statusCode: 0, error: null, observed: { body: 'SERVING' } });
    expect(result.responseTime).toBeGreaterThanOrEqual(0);
    expect(plain.asked.at(-1)).toBe('');
  });

  it.each(['NOT_SERVING', 'UNKNOWN', 'SERVICE_UNKNOWN'] as const)(
    'fails naming a %s service, then recovers when it serves',
    async (status) => {
      plain.serve('vigil.Orders', status);
      const down = await sut.check(target(plain.port, { grpcService: 'vigil.Orders' }));
      expect(down).toMatchObject({ ok: false, statusCode: 0, error: `Health status ${status}`, observed: { body: status } });
      plain.serve('vigil.Orders', 'SERVING');
      expect(await sut.check(target(plain.port, { grpcService: 'vigil.Orders' }))).toMatchObject({
        ok: true,
        observed: { body: 'SERVING' },
      });
    },
  );

  it('fails for a service the health service does not know (NOT_FOUND)', async () => {
    const result = await sut.check(target(plain.port, { grpcService: 'nobody.Knows' }));
    expect(result).toMatchObject({
      ok: false,
      statusCode: 5,
      error: 'Service "nobody.Knows" is unknown to the health service (NOT_FOUND)',
      observed: { body: 'SERVICE_UNKNOWN' },
    });
  });

  it('fails at the timeout when the answer is late', async () => {
    plain.delay(1500);
    try {
      const result = await sut.check(target(plain.port, { timeout: 1 }));
      expect(result.ok).toBe(false);
      expect(result.error).toMatch(/^Timeout after 1 s/);
    } finally {
      plain.delay(0);
    }
  });

  it('fails with "Connection refused" on a closed port', async () => {
    const { server, port } = await listenRaw(() => undefined);
    await new Promise((resolve) => server.close(resolve));
    expect(await sut.check(target(port))).toMatchObject({ ok: false, error: 'Connection refused', responseTime: null });
  });

  it('fails against a server that does not speak HTTP/2', async () => {
    const { server, port } = await listenRaw((socket) => socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n'));
    try {
      const result = await sut.check(target(port));
      expect(result.ok).toBe(false);
      expect(result.error).toEqual(expect.any(String));
    } finally {
      server.close();
    }
  });

  it('refuses an address denied by OUTBOUND_DENY without asking', async () => {
    const denied = new GrpcChecker({ outbound: AddressDenyList.parse('127.0.0.0/8') });
    const before = plain.asked.length;
    expect(await denied.check(target(plain.port))).toMatchObject({ ok: false, error: 'Address 127.0.0.1 is refused by OUTBOUND_DENY' });
    expect(plain.asked.length).toBe(before);
  });

  it('fails over TLS on an untrusted certificate, recording it, and asks nothing', async () => {
    const before = secure.asked.length;
    const result = await sut.check(target(secure.port, { tls: true }));
    expect(result).toMatchObject({ ok: false, error: 'TLS error: self-signed certificate' });
    expect(result.observed.certificate).toMatchObject({
      subject: 'CN=localhost, O=Vigil Tests',
      authorizationError: 'DEPTH_ZERO_SELF_SIGNED_CERT',
    });
    expect(secure.asked.length).toBe(before);
  });

  it('checks over TLS with ignoreTls, recording the certificate and its expiry', async () => {
    const result = await sut.check(target(secure.port, { tls: true, ignoreTls: true, hostname: 'localhost' }));
    expect(result).toMatchObject({ ok: true, observed: { body: 'SERVING' } });
    const days = ((result.observed.certificate?.expiresAt.getTime() ?? 0) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(4);
    expect(days).toBeLessThanOrEqual(5);
  });

  it('checks over TLS without ignoreTls when the certificate is trusted for the name', async () => {
    const trusting = new GrpcChecker({ outbound: AddressDenyList.parse('') }, { ca: [certificate.cert] });
    const result = await trusting.check(target(secure.port, { tls: true, hostname: 'localhost' }));
    expect(result).toMatchObject({
      ok: true,
      observed: { body: 'SERVING', certificate: { authorizationError: null, subject: 'CN=localhost, O=Vigil Tests' } },
    });
  });

  it('fails with a TLS error when asked for TLS of a plaintext server', async () => {
    const result = await sut.check(target(plain.port, { tls: true }));
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/^TLS error: /);
  });

  it('leaves no connection open after its checks', async () => {
    const before = openSockets();
    await Promise.all(Array.from({ length: 20 }, () => sut.check(target(plain.port))));
    await Promise.all(Array.from({ length: 5 }, () => sut.check(target(secure.port, { tls: true, ignoreTls: true }))));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(openSockets()).toBeLessThanOrEqual(before);
  });
});

describe('judge', () => {
  const answer = (grpcStatus: string | undefined, data: Buffer = Buffer.alloc(0), where: 'trailers' | 'headers' = 'trailers') => ({
    headers: { ':status': 200, ...(where === 'headers' && grpcStatus !== undefined ? { 'grpc-status': grpcStatus } : {}) },
    trailers: where === 'trailers' && grpcStatus !== undefined ? { 'grpc-status': grpcStatus } : {},
    data,
  });
  const reply = (status: number) => grpcFrame(encodeHealthResponse(status));

  it.each([
    [answer('0', reply(1)), { ok: true, statusCode: 0, error: null }],
    [answer('0', reply(2)), { ok: false, statusCode: 0, error: 'Health status NOT_SERVING' }],
    [answer('0', reply(0)), { ok: false, statusCode: 0, error: 'Health status UNKNOWN' }],
    [answer('0', reply(3)), { ok: false, statusCode: 0, error: 'Health status SERVICE_UNKNOWN' }],
    [answer('0', reply(9)), { ok: false, statusCode: 0, error: 'Health status status 9' }],
    [answer('0', Buffer.from([1, 0, 0, 0, 0])), { ok: false, statusCode: 0, error: 'The answer is not a HealthCheckResponse' }],
    [
      answer('12', undefined, 'headers'),
      { ok: false, statusCode: 12, error: 'The server does not implement grpc.health.v1.Health (UNIMPLEMENTED)' },
    ],
    [answer('5'), { ok: false, statusCode: 5, error: 'Service "svc" is unknown to the health service (NOT_FOUND)' }],
    [answer('4'), { ok: false, statusCode: 4, error: 'Timeout after 3 s (DEADLINE_EXCEEDED)' }],
    [answer('14'), { ok: false, statusCode: 14, error: 'gRPC error UNAVAILABLE' }],
    [answer(undefined), { ok: false, statusCode: null, error: 'The answer carried no gRPC status' }],
    [
      { headers: { ':status': 404 }, trailers: {}, data: Buffer.alloc(0) },
      { ok: false, statusCode: null, error: 'Unexpected HTTP status 404: not a gRPC server' },
    ],
  ])('judges %j', (given, expected) => {
    expect(judge(given, 'svc', 3)).toEqual(expected);
  });

  it('reads the gRPC error message, percent-decoded', () => {
    const given = { headers: { ':status': 200 }, trailers: { 'grpc-status': '13', 'grpc-message': 'disk%20full' }, data: Buffer.alloc(0) };
    expect(judge(given, '', 3).error).toBe('gRPC error INTERNAL: disk full');
  });

  it('reads the serving status of a framed response, the default (absent) field as UNKNOWN', () => {
    expect(servingStatusOf(reply(1))).toBe('SERVING');
    expect(servingStatusOf(grpcFrame(Buffer.alloc(0)))).toBe('UNKNOWN');
    expect(servingStatusOf(Buffer.from([0, 0, 0, 0, 9, 8]))).toBeNull();
  });
});
