import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AckPolicy, connect, type JetStreamManager, type NatsConnection } from 'nats';
import { AddressDenyList } from '../../../common/outbound';
import type { AddedCheckTarget } from '../../checkers/checker';
import { createSelfSignedCertificate } from '../../checkers/fakes/certificates.testing';
import { closedPort, silentServer } from '../../checkers/fakes/database-servers.testing';
import { describeNatsFailure, NatsChecker, NATS_READ_LIMIT_BYTES } from './nats.checker';
import { endlessLineServer, startNatsServer, type OwnNatsServer } from './nats-server.testing';

/** The NATS server with JetStream this machine (and CI) runs on 127.0.0.1:4222, without authentication. */
const SERVER = { hostname: '127.0.0.1', port: 4222 };
const RUN = `${process.pid}_${Date.now()}`;
const SUBJECT = `vigil.spec.${RUN}.health`;
const STREAM = `VIGIL_SPEC_${RUN}`;
const CONSUMER = `lagging_${RUN}`;

const target = (settings: Record<string, unknown> = {}, overrides: Partial<AddedCheckTarget<'nats'>> = {}): AddedCheckTarget<'nats'> => ({
  id: 1,
  type: 'nats',
  scope: 'admin',
  timeout: 5,
  assertions: [],
  url: '',
  ...SERVER,
  settings: { natsTls: false, ignoreTls: false, ...settings },
  ...overrides,
});

describe('NatsChecker', () => {
  const sut = new NatsChecker({ outbound: AddressDenyList.parse('127.0.0.2/32') });
  let service: NatsConnection;
  let jsm: JetStreamManager;

  beforeAll(async () => {
    service = await connect({ servers: '127.0.0.1:4222' });
    // The service under watch: answers each request with what it was asked, upper-cased.
    service.subscribe(SUBJECT, {
      callback: (_error, message) => message.respond(new TextEncoder().encode(message.string().toUpperCase())),
    });
    jsm = await service.jetstreamManager();
    await jsm.streams.add({ name: STREAM, subjects: [`vigil.spec.${RUN}.events`] });
    await jsm.consumers.add(STREAM, { durable_name: CONSUMER, ack_policy: AckPolicy.Explicit });
    const js = service.jetstream();
    for (const text of ['one', 'two', 'three', 'four']) await js.publish(`vigil.spec.${RUN}.events`, new TextEncoder().encode(text));
  });
  afterAll(async () => {
    await jsm.streams.delete(STREAM);
    await service.close();
  });

  it('is up when the server accepts the connection, timing it', async () => {
    const result = await sut.check(target());
    expect(result).toMatchObject({ ok: true, error: null, observed: {} });
    expect(result.responseTime).toBeGreaterThanOrEqual(0);
  });

  it("keeps a request's answer as the body", async () => {
    const result = await sut.check(target({ natsSubject: SUBJECT, natsRequestBody: 'ping' }));
    expect(result).toMatchObject({ ok: true, observed: { body: 'PING' } });
  });

  it("reports a JetStream consumer's pending messages as its lag", async () => {
    const result = await sut.check(target({ natsStream: STREAM, natsConsumer: CONSUMER }));
    expect(result).toMatchObject({ ok: true, observed: { metrics: { streamLag: 4 } } });
  });

  it.each([
    ['a subject nobody answers on', { natsSubject: `vigil.spec.${RUN}.nobody` }, `No service answers on "vigil.spec.${RUN}.nobody"`],
    [
      'a missing stream',
      { natsStream: `${STREAM}_missing`, natsConsumer: CONSUMER },
      `JetStream stream "${STREAM}_missing" does not exist`,
    ],
    [
      'a missing consumer',
      { natsStream: STREAM, natsConsumer: 'nobody' },
      `JetStream consumer "nobody" does not exist on stream "${STREAM}"`,
    ],
  ])('names %s', async (_case, settings, error) => {
    expect(await sut.check(target(settings))).toMatchObject({ ok: false, responseTime: null, error });
  });

  describe('against a server that wants a password', () => {
    let guarded: OwnNatsServer;
    beforeAll(async () => {
      guarded = await startNatsServer(['--user', 'monitor', '--pass', 'right-password']);
    });
    afterAll(() => guarded.stop());

    it('logs in with the right password and names a wrong one', async () => {
      const login = (natsPassword: string) => target({ natsUsername: 'monitor', natsPassword }, { port: guarded.port });
      expect((await sut.check(login('right-password'))).ok).toBe(true);
      expect(await sut.check(login('wrong'))).toMatchObject({ ok: false, error: 'NATS login refused: wrong user name, password or token' });
      expect((await sut.check(target({}, { port: guarded.port }))).error).toBe('NATS login refused: wrong user name, password or token');
    });
  });

  describe('over TLS', () => {
    const certificate = createSelfSignedCertificate();
    const folder = mkdtempSync(join(tmpdir(), 'vigil-nats-'));
    let secure: OwnNatsServer;
    beforeAll(async () => {
      writeFileSync(join(folder, 'cert.pem'), certificate.cert);
      writeFileSync(join(folder, 'key.pem'), certificate.key);
      secure = await startNatsServer(['--tls', '--tlscert', join(folder, 'cert.pem'), '--tlskey', join(folder, 'key.pem')]);
    });
    afterAll(async () => {
      await secure.stop();
      rmSync(folder, { recursive: true, force: true });
    });

    it('refuses a certificate Node does not trust, before sending credentials', async () => {
      const result = await sut.check(target({ natsTls: true, natsToken: 'secret' }, { hostname: 'localhost', port: secure.port }));
      expect(result).toMatchObject({ ok: false, error: 'TLS error: self-signed certificate' });
    });

    it('names a server that requires TLS when the monitor does not ask for it', async () => {
      const result = await sut.check(target({}, { hostname: 'localhost', port: secure.port }));
      expect(result).toMatchObject({ ok: false, error: 'The server requires TLS: turn on TLS for this monitor' });
    });

    it('records the certificate when TLS errors are ignored', async () => {
      const result = await sut.check(target({ natsTls: true, ignoreTls: true }, { hostname: 'localhost', port: secure.port }));
      expect(result).toMatchObject({ ok: true, observed: { certificate: { fingerprint: certificate.fingerprint } } });
    });
  });

  it('names a server without TLS when the monitor asks for it', async () => {
    expect((await sut.check(target({ natsTls: true }))).error).toBe('The server does not offer TLS');
  });

  it('fails within the timeout against a server that accepts and says nothing', async () => {
    const silent = await silentServer();
    try {
      const started = performance.now();
      expect(await sut.check(target({}, { port: silent.port, timeout: 1 }))).toMatchObject({ ok: false, error: 'Timeout after 1 s' });
      expect(performance.now() - started).toBeLessThan(7500);
    } finally {
      await silent.close();
    }
  });

  it('stops reading a server that sends an endless first line', async () => {
    const endless = await endlessLineServer();
    try {
      const result = await sut.check(target({}, { port: endless.port, timeout: 10 }));
      expect(result).toMatchObject({ ok: false, error: `The server sent more than ${NATS_READ_LIMIT_BYTES / 1024} KiB` });
    } finally {
      await endless.close();
    }
  });

  it('names a refused connection and a denied address without connecting', async () => {
    expect((await sut.check(target({}, { port: await closedPort() }))).error).toBe('Connection refused');
    expect((await sut.check(target({}, { hostname: '127.0.0.2' }))).error).toBe('Address 127.0.0.2 is refused by OUTBOUND_DENY');
  });

  it.each([
    [{ code: 'AUTHORIZATION_VIOLATION' }, 'NATS login refused: wrong user name, password or token'],
    [{ code: 'PERMISSIONS_VIOLATION' }, 'NATS refused the request: this user may not publish or subscribe there'],
    [{ code: 'CONNECTION_TIMEOUT' }, 'Timeout after 7 s'],
    [{ code: 'SERVER_OPT_NA' }, 'The server does not offer TLS'],
    [{ code: 'TLS', chainedError: { code: 'DEPTH_ZERO_SELF_SIGNED_CERT' } }, 'TLS error: self-signed certificate'],
    [{ code: 'CONNECTION_REFUSED' }, 'Connection refused'],
    [new Error('unexpected response from server'), 'The server does not speak NATS'],
  ])('describes %p as "%s"', (error, text) => {
    expect(describeNatsFailure(error, 7)).toBe(text);
  });
});
