import request from 'supertest';
import { AckPolicy, connect, type JetStreamManager, type NatsConnection } from 'nats';
import { SECRET_MASK, type MonitorDto } from '@vigil/proto';
import { silentServer, type FakeServer } from '../../server/src/monitors/checkers/fakes/database-servers.testing';
import { endlessLineServer, startNatsServer, type OwnNatsServer } from '../../server/src/monitors/types/nats/nats-server.testing';
import { registerFirstAdmin, type Session } from '../factories/users';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * Issue 33, requirement 4: a `nats` monitor on the real server against this machine's NATS with JetStream
 * (127.0.0.1:4222; `npm test` and `.ci/run` start it) and a password-protected nats-server the test starts: a
 * request/reply answer and a consumer's lag as sources, failing assertions and a refused password → down with named
 * errors, recovery; bad settings → 400 naming the field; hostile servers (silent, an endless first line) → bounded,
 * named failures.
 */
describe('nats monitors', () => {
  const run = `${process.pid}_${Date.now()}`;
  const subject = `vigil.e2e.${run}.health`;
  const stream = `VIGIL_E2E_${run}`;
  const consumer = `billing_${run}`;
  const encode = (text: string) => new TextEncoder().encode(text);
  let app: TestApp;
  let admin: Session;
  let service: NatsConnection;
  let jsm: JetStreamManager;
  let guarded: OwnNatsServer;
  let silent: FakeServer;
  let endless: FakeServer;
  /** What the watched service answers with. */
  let health = { status: 'ok', queue: 0 };

  beforeAll(async () => {
    [app, service, guarded, silent, endless] = await Promise.all([
      startTestApp(),
      connect({ servers: '127.0.0.1:4222' }),
      startNatsServer(['--user', 'monitor', '--pass', 'right-password']),
      silentServer(),
      endlessLineServer(),
    ]);
    service.subscribe(subject, { callback: (_error, message) => message.respond(encode(JSON.stringify(health))) });
    jsm = await service.jetstreamManager();
    await jsm.streams.add({ name: stream, subjects: [`vigil.e2e.${run}.invoices`] });
    await jsm.consumers.add(stream, { durable_name: consumer, ack_policy: AckPolicy.Explicit });
    // Members may not reach loopback (USER_OUTBOUND_DENY): monitors are the admin's.
    admin = await registerFirstAdmin(app.url);
  }, 120_000);
  afterAll(async () => {
    await jsm?.streams.delete(stream).catch(() => undefined);
    await service?.close();
    await app?.destroy();
    await Promise.all([guarded?.stop(), silent?.close(), endless?.close()]);
  });

  const api = () => request(app.url);
  const base = () => ({ name: 'bus', type: 'nats', hostname: '127.0.0.1', retries: 0, active: false });

  async function check(id: number): Promise<{ status: string; error: string | null; monitor: MonitorDto }> {
    const { body } = await api().post(`/api/monitors/${id}/check`).set(admin.auth).expect(200);
    return { status: body.check.status, error: body.check.error, monitor: body.monitor };
  }

  const put = (id: number, body: Record<string, unknown>) => api().put(`/api/monitors/${id}`).set(admin.auth).send(body).expect(200);
  const create = async (body: Record<string, unknown>): Promise<MonitorDto> =>
    (await api().post('/api/monitors').set(admin.auth).send(body).expect(201)).body.monitor;

  it('is up while the service answers ok, down when its answer changes or it stops answering, and recovers', async () => {
    const monitor = await create({
      ...base(),
      natsSubject: subject,
      natsRequestBody: 'status?',
      assertions: [{ source: 'jsonPath', path: '$.status', operator: 'eq', value: 'ok' }],
    });
    expect(monitor).toMatchObject({ type: 'nats', port: 4222, settings: { natsSubject: subject, natsRequestBody: 'status?' } });
    expect(await check(monitor.id)).toMatchObject({ status: 'up', error: null, monitor: { status: 'up' } });

    health = { status: 'degraded', queue: 12 };
    expect(await check(monitor.id)).toMatchObject({ status: 'down', error: '$.status eq "ok" failed: got "degraded"' });

    await put(monitor.id, { natsSubject: `vigil.e2e.${run}.gone` });
    expect(await check(monitor.id)).toMatchObject({ status: 'down', error: `No service answers on "vigil.e2e.${run}.gone"` });

    health = { status: 'ok', queue: 0 };
    await put(monitor.id, { natsSubject: subject });
    expect(await check(monitor.id)).toMatchObject({ status: 'up', error: null, monitor: { status: 'up' } });
  });

  it('goes down when a JetStream consumer falls behind and up once it catches up', async () => {
    const monitor = await create({
      ...base(),
      natsStream: stream,
      natsConsumer: consumer,
      assertions: [{ source: 'streamLag', operator: 'lt', value: 3 }],
    });
    expect(await check(monitor.id)).toMatchObject({ status: 'up', error: null });

    const js = service.jetstream();
    for (let index = 0; index < 5; index += 1) await js.publish(`vigil.e2e.${run}.invoices`, encode(`invoice ${index}`));
    expect(await check(monitor.id)).toMatchObject({ status: 'down', error: 'streamLag lt 3 failed: got 5' });

    const messages = await (await js.consumers.get(stream, consumer)).fetch({ max_messages: 5, expires: 5000 });
    for await (const message of messages) message.ack();
    expect(await check(monitor.id)).toMatchObject({ status: 'up', error: null, monitor: { status: 'up' } });
  });

  it('is down on a wrong password with a named error and up with the right one, which reads back masked', async () => {
    const monitor = await create({ ...base(), port: guarded.port, natsUsername: 'monitor', natsPassword: 'wrong' });
    expect(monitor.settings).toMatchObject({ natsUsername: 'monitor', natsPassword: SECRET_MASK });
    expect(await check(monitor.id)).toMatchObject({ status: 'down', error: 'NATS login refused: wrong user name, password or token' });
    await put(monitor.id, { natsPassword: 'right-password' });
    expect(await check(monitor.id)).toMatchObject({ status: 'up', error: null, monitor: { status: 'up' } });
  });

  it.each([
    ['a wildcard subject', { natsSubject: 'svc.*' }, 'natsSubject', 'monitors.natsSubjectInvalid'],
    ['a stream without a consumer', { natsStream: 'ORDERS' }, 'natsConsumer', 'monitors.natsStreamConsumer'],
    ['a request body without a subject', { natsRequestBody: 'ping' }, 'natsSubject', 'monitors.natsRequestSubject'],
    ['a password and a token', { natsUsername: 'u', natsPassword: 'p', natsToken: 't' }, 'natsToken', 'monitors.natsAuthOne'],
    ['a stream name with a dot', { natsStream: 'ORDERS.v2', natsConsumer: 'c' }, 'natsStream', 'monitors.jetStreamNameInvalid'],
  ])('refuses %s with a 400 naming the field', async (_case, settings, field, code) => {
    const { body } = await api()
      .post('/api/monitors')
      .set(admin.auth)
      .send({ ...base(), ...settings })
      .expect(400);
    expect(body).toMatchObject({ success: false, code, field });
  });

  it('refuses a source NATS does not observe', async () => {
    const { body } = await api()
      .post('/api/monitors')
      .set(admin.auth)
      .send({ ...base(), assertions: [{ source: 'queueDepth', operator: 'lt', value: 1 }] })
      .expect(400);
    expect(body.code).toBe('monitors.assertionSourceNotForType');
  });

  it.each([
    ['says nothing', () => silent.port, 'Timeout after 2 s'],
    ['sends an endless first line', () => endless.port, 'The server sent more than 1024 KiB'],
  ])('fails a test check against a server that %s with a named error, on time', async (_case, port, error) => {
    const started = Date.now();
    const { body } = await api()
      .post('/api/monitors/test')
      .set(admin.auth)
      .send({ ...base(), port: port(), timeout: 2 })
      .expect(200);
    expect(body.result).toMatchObject({ ok: false, error });
    expect(Date.now() - started).toBeLessThan(10000);
  });
});
