import { createServer, type Server } from 'node:net';
import { AddressDenyList } from '../../../common/outbound';
import type { CheckTarget } from '../../checkers/checker';
import { createSelfSignedCertificate, daysFromNow } from '../../checkers/fakes/certificates.testing';
import { FakeWebsocketServer, startWebsocketServer } from '../../checkers/fakes/websocket-server.testing';
import { WebsocketChecker } from './websocket.checker';

const target = (url: string, fields: Partial<CheckTarget<'websocket'>> = {}): CheckTarget<'websocket'> => ({
  id: 1,
  scope: 'admin',
  type: 'websocket',
  url,
  message: null,
  ignoreTls: false,
  timeout: 2,
  assertions: [],
  ...fields,
});

async function closedPort(): Promise<number> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('WebsocketChecker', () => {
  const sut = new WebsocketChecker({ outbound: AddressDenyList.parse('') });
  let fake: FakeWebsocketServer;
  let secure: FakeWebsocketServer;

  beforeAll(async () => {
    fake = await startWebsocketServer();
    secure = await startWebsocketServer({ tls: createSelfSignedCertificate({ validTo: daysFromNow(5) }) });
  });
  beforeEach(() => {
    fake.behave({ mode: 'echo' });
    secure.behave({ mode: 'echo' });
  });
  afterAll(async () => {
    await fake.close();
    await secure.close();
  });

  it('is up once the connection opens when no message is configured', async () => {
    const result = await sut.check(target(fake.url));
    expect(result).toMatchObject({ ok: true, statusCode: 101, error: null, observed: {} });
    expect(result.responseTime).toBeGreaterThanOrEqual(0);
    expect(result.observed.body).toBeUndefined();
  });

  it('sends the message once and keeps the first answer as the body', async () => {
    fake.behave({ mode: 'answer', text: '{"status":"degraded"}' });
    const before = fake.received.length;
    const result = await sut.check(target(fake.url, { message: 'status?' }));
    expect(result).toMatchObject({ ok: true, error: null, observed: { body: '{"status":"degraded"}' } });
    expect(fake.received.slice(before)).toEqual(['status?']);
  });

  it('keeps the first 64 KiB of a long answer', async () => {
    fake.behave({ mode: 'answer', text: 'x'.repeat(70 * 1024) });
    const result = await sut.check(target(fake.url, { message: 'big?' }));
    expect(result.ok).toBe(true);
    expect(result.observed.body).toHaveLength(64 * 1024);
  });

  it('fails when a message was sent and nothing comes back within the timeout', async () => {
    fake.behave({ mode: 'silent' });
    const result = await sut.check(target(fake.url, { message: 'ping', timeout: 1 }));
    expect(result).toMatchObject({ ok: false, responseTime: null, error: 'No message received within 1 s' });
  });

  it('fails when the server closes before answering, naming the close code', async () => {
    fake.behave({ mode: 'close' });
    const result = await sut.check(target(fake.url, { message: 'ping' }));
    expect(result).toMatchObject({ ok: false, error: 'Closed by the server before answering (code 1011)' });
  });

  it('fails naming the status when the upgrade is refused', async () => {
    fake.behave({ mode: 'refuse' });
    const result = await sut.check(target(fake.url));
    expect(result).toMatchObject({ ok: false, statusCode: 404, error: 'Unexpected server response: 404 (not a WebSocket endpoint)' });
  });

  it('fails with "Connection refused" on a closed port', async () => {
    const result = await sut.check(target(`ws://127.0.0.1:${await closedPort()}/`));
    expect(result).toMatchObject({ ok: false, error: 'Connection refused' });
  });

  it('refuses an address denied by OUTBOUND_DENY, by IP or by name, without connecting', async () => {
    const denied = new WebsocketChecker({ outbound: AddressDenyList.parse('127.0.0.0/8, ::1') });
    const before = fake.received.length;
    expect(await denied.check(target(fake.url, { message: 'x' }))).toMatchObject({
      ok: false,
      error: 'Address 127.0.0.1 is refused by OUTBOUND_DENY',
    });
    const byName = await denied.check(target(`ws://localhost:${fake.port}/`, { message: 'x' }));
    expect(byName.error).toMatch(/^Address (127\.0\.0\.1|::1) is refused by OUTBOUND_DENY$/);
    expect(fake.received.length).toBe(before);
  });

  it('closes the connection with a close frame after the check', async () => {
    const before = fake.cleanCloses;
    await sut.check(target(fake.url, { message: 'bye' }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(fake.cleanCloses).toBe(before + 1);
  });

  it('fails a wss check on an untrusted certificate, recording the certificate, and sends nothing', async () => {
    const before = secure.received.length;
    const result = await sut.check(target(secure.url, { message: 'hello' }));
    expect(result).toMatchObject({ ok: false, error: 'TLS error: self-signed certificate' });
    expect(result.observed.certificate).toMatchObject({ subject: 'CN=localhost, O=Vigil Tests', issuer: 'CN=localhost, O=Vigil Tests' });
    expect(secure.received.length).toBe(before);
  });

  it('accepts the untrusted certificate with ignoreTls and still records it with its expiry', async () => {
    const result = await sut.check(target(secure.url, { message: 'hello', ignoreTls: true }));
    expect(result).toMatchObject({ ok: true, observed: { body: 'hello' } });
    const certificate = result.observed.certificate;
    expect(certificate?.authorizationError).toBe('DEPTH_ZERO_SELF_SIGNED_CERT');
    expect(certificate?.fingerprint).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    const days = ((certificate?.expiresAt.getTime() ?? 0) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(4);
    expect(days).toBeLessThanOrEqual(5);
  });

  it('accepts a trusted certificate for the name it was made for and refuses it for another address', async () => {
    const certificate = createSelfSignedCertificate({ validTo: daysFromNow(30) });
    const trusting = new WebsocketChecker({ outbound: AddressDenyList.parse('') }, { ca: [certificate.cert] });
    const other = await startWebsocketServer({ tls: certificate, host: '127.0.0.2' });
    const named = await startWebsocketServer({ tls: certificate });
    try {
      const trusted = await trusting.check(target(`wss://localhost:${named.port}/`, { message: 'hi' }));
      expect(trusted).toMatchObject({ ok: true, observed: { body: 'hi', certificate: { authorizationError: null } } });
      const mismatched = await trusting.check(target(other.url, { message: 'hi' }));
      expect(mismatched).toMatchObject({ ok: false, error: 'TLS error: certificate does not match the host name' });
      expect(other.received).toEqual([]);
    } finally {
      await other.close();
      await named.close();
    }
  });

  it('refuses a URL that is not ws: or wss:', async () => {
    expect(await sut.check(target('http://127.0.0.1:1/'))).toMatchObject({ ok: false, error: 'The URL must start with ws:// or wss://' });
  });
});
