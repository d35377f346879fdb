import request from 'supertest';
import { connect, type Channel, type ChannelModel } from 'amqplib';
import { SECRET_MASK, type MonitorDto } from '@vigil/proto';
import { silentServer, type FakeServer } from '../../server/src/monitors/checkers/fakes/database-servers.testing';
import { registerFirstAdmin, type Session } from '../factories/users';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * Issue 33, requirement 3: an `amqp` monitor on the real server against this machine's RabbitMQ (127.0.0.1:5672,
 * guest/guest; `npm test` and `.ci/run` start it): up with a queue's depth and consumers as sources, a failing
 * assertion and a refused password → down with named errors, recovery; bad settings → 400 naming the field; a broker
 * that accepts and says nothing → a bounded, named timeout.
 */
describe('amqp monitors', () => {
  const queue = `vigil-e2e-${process.pid}-${Date.now()}`;
  let app: TestApp;
  let admin: Session;
  let broker: ChannelModel;
  let channel: Channel;
  let silent: FakeServer;

  beforeAll(async () => {
    [app, broker, silent] = await Promise.all([startTestApp(), connect('amqp://guest:guest@127.0.0.1:5672'), silentServer()]);
    channel = await broker.createConfirmChannel();
    await channel.assertQueue(queue, { durable: false });
    // Members may not reach loopback (USER_OUTBOUND_DENY): monitors are the admin's.
    admin = await registerFirstAdmin(app.url);
  }, 120_000);
  afterAll(async () => {
    await channel?.deleteQueue(queue).catch(() => undefined);
    await broker?.close();
    await app?.destroy();
    await silent?.close();
  });

  const api = () => request(app.url);
  const base = () => ({ name: 'orders broker', type: 'amqp', hostname: '127.0.0.1', retries: 0, active: false });

  async function check(id: number): Promise<{ status: string; error: string | null; monitor: MonitorDto }> {
    const { body } = await api().post(`/api/monitors/${id}/check`).set(admin.auth).expect(200);
    return { status: body.check.status, error: body.check.error, monitor: body.monitor };
  }

  const put = (id: number, body: Record<string, unknown>) => api().put(`/api/monitors/${id}`).set(admin.auth).send(body).expect(200);

  async function publish(count: number): Promise<void> {
    for (let index = 0; index < count; index += 1) channel.sendToQueue(queue, Buffer.from(`order ${index}`));
    await (channel as unknown as { waitForConfirms(): Promise<void> }).waitForConfirms();
  }

  it('is up while the queue is short, down once it backs up or the password is wrong, and recovers', async () => {
    const { body } = await api()
      .post('/api/monitors')
      .set(admin.auth)
      .send({
        ...base(),
        amqpUsername: 'guest',
        amqpPassword: 'guest',
        amqpQueue: queue,
        assertions: [
          { source: 'queueDepth', operator: 'lt', value: 3 },
          { source: 'consumers', operator: 'eq', value: 0 },
        ],
      })
      .expect(201);
    const monitor: MonitorDto = body.monitor;
    expect(monitor).toMatchObject({
      type: 'amqp',
      port: 5672,
      settings: { amqpUsername: 'guest', amqpPassword: SECRET_MASK, amqpVhost: '/', amqpQueue: queue, amqpTls: false },
    });

    await publish(2);
    expect(await check(monitor.id)).toMatchObject({ status: 'up', error: null, monitor: { status: 'up' } });

    await publish(3);
    expect(await check(monitor.id)).toMatchObject({ status: 'down', error: 'queueDepth lt 3 failed: got 5' });

    await channel.purgeQueue(queue);
    expect(await check(monitor.id)).toMatchObject({ status: 'up', error: null });

    await put(monitor.id, { amqpPassword: 'not-the-password' });
    expect(await check(monitor.id)).toMatchObject({ status: 'down', error: 'AMQP login refused: wrong user name or password' });

    // The masked password sent back on edit keeps the stored one; a fresh one replaces it.
    await put(monitor.id, { amqpPassword: 'guest' });
    expect(await check(monitor.id)).toMatchObject({ status: 'up', error: null, monitor: { status: 'up' } });
    await put(monitor.id, { name: 'renamed', amqpPassword: SECRET_MASK });
    expect(await check(monitor.id)).toMatchObject({ status: 'up' });
  });

  it('names a queue that does not exist in a test check', async () => {
    const { body } = await api()
      .post('/api/monitors/test')
      .set(admin.auth)
      .send({ ...base(), amqpQueue: `${queue}-gone` })
      .expect(200);
    expect(body.result).toMatchObject({ ok: false, error: `AMQP queue "${queue}-gone" does not exist` });
  });

  it.each([
    ['a queue name with a slash', { amqpQueue: 'orders/eu' }, 'amqpQueue', 'monitors.amqpQueueInvalid'],
    ['a vhost over two lines', { amqpVhost: 'a\nb' }, 'amqpVhost', 'notifications.fieldText'],
    ['a non-boolean amqpTls', { amqpTls: 'maybe' }, 'amqpTls', 'notifications.fieldBoolean'],
  ])('refuses %s with a 400 naming the field', async (_case, settings, field, code) => {
    const { body } = await api()
      .post('/api/monitors')
      .set(admin.auth)
      .send({ ...base(), ...settings })
      .expect(400);
    expect(body).toMatchObject({ success: false, code });
    if (field) expect(body.field).toBe(field);
  });

  it.each([
    ['no hostname', { hostname: undefined }, 'monitors.hostnameRequired'],
    ['a port out of range', { port: 70_000 }, 'monitors.portInvalid'],
    [
      'a source AMQP does not observe',
      { assertions: [{ source: 'streamLag', operator: 'lt', value: 1 }] },
      'monitors.assertionSourceNotForType',
    ],
  ])('refuses %s', async (_case, fields, code) => {
    const { body } = await api()
      .post('/api/monitors')
      .set(admin.auth)
      .send({ ...base(), ...fields })
      .expect(400);
    expect(body.code).toBe(code);
  });

  it('fails a test check against a broker that says nothing with a named timeout, on time', async () => {
    const started = Date.now();
    const { body } = await api()
      .post('/api/monitors/test')
      .set(admin.auth)
      .send({ ...base(), port: silent.port, timeout: 2 })
      .expect(200);
    expect(body.result).toMatchObject({ ok: false, error: 'Timeout after 2 s' });
    expect(Date.now() - started).toBeLessThan(10000);
  });
});
