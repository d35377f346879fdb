import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { SECRET_MASK, type MonitorDto } from '@vigil/proto';
import { createSelfSignedCertificate } from '../../server/src/monitors/checkers/fakes/certificates.testing';
import { silentServer, type FakeServer } from '../../server/src/monitors/checkers/fakes/database-servers.testing';
import { startHostileBroker, type HostileBroker } from '../../server/src/monitors/types/mqtt/hostile-broker.testing';
import { startMosquitto, type TestMosquitto } from '../../server/src/monitors/types/mqtt/mosquitto.testing';
import { registerFirstAdmin, type Session } from '../factories/users';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * Issue 33, requirement 2: an `mqtt` monitor subscribes to a topic on a real Mosquitto (the machine's on 1883, and one
 * the spec starts with passwords, TLS and WebSocket listeners), publishes its message and judges what comes back:
 * up, down by name on a failing assertion or keyword, up again; hostile brokers fail named within the timeout, and
 * bad settings are a 400 naming the field.
 */
describe('mqtt monitors', () => {
  let app: TestApp;
  let admin: Session;
  let broker: TestMosquitto;
  let silent: FakeServer;
  let hostile: HostileBroker;

  beforeAll(async () => {
    [app, broker, silent, hostile] = await Promise.all([
      // Loopback is refused to members by default (USER_OUTBOUND_DENY): monitors are created as the admin.
      startTestApp(),
      startMosquitto(createSelfSignedCertificate()),
      silentServer(),
      startHostileBroker('huge'),
    ]);
    admin = await registerFirstAdmin(app.url);
  }, 120_000);
  afterAll(async () => {
    await app?.destroy();
    await broker?.close();
    await silent?.close();
    await hostile?.close();
  });

  const api = () => request(app.url);
  const topic = () => `vigil/e2e/${randomBytes(6).toString('hex')}`;
  const shared = (fields: Record<string, unknown>) => ({ type: 'mqtt', hostname: '127.0.0.1', mqttTopic: topic(), ...fields });
  const own = (protocol: keyof TestMosquitto['ports'], fields: Record<string, unknown> = {}) =>
    shared({
      port: broker.ports[protocol],
      mqttProtocol: protocol,
      mqttUsername: broker.username,
      mqttPassword: broker.password,
      mqttPublishMessage: 'online',
      ...fields,
    });

  async function create(body: Record<string, unknown>): Promise<MonitorDto> {
    // Paused, no retries: each check is run by hand and one failure is down at once.
    const { body: response } = await api()
      .post('/api/monitors')
      .set(admin.auth)
      .send({ name: 'broker', retries: 0, active: false, ...body })
      .expect(201);
    return response.monitor;
  }

  async function check(id: number): Promise<{ status: string; error: string | null }> {
    const { body } = await api().post(`/api/monitors/${id}/check`).set(admin.auth).expect(200);
    return { status: body.check.status, error: body.check.error };
  }

  const edit = (id: number, fields: Record<string, unknown>) => api().put(`/api/monitors/${id}`).set(admin.auth).send(fields).expect(200);

  it('is up on the message it publishes, down by name when a JSON assertion fails, and up again', async () => {
    const monitor = await create(
      shared({
        port: 1883,
        mqttPublishMessage: '{"status":"ok"}',
        mqttCheckType: 'json-query',
        assertions: [{ source: 'jsonPath', path: '$.status', operator: 'eq', value: 'ok' }],
      }),
    );
    expect(monitor).toMatchObject({
      type: 'mqtt',
      hostname: '127.0.0.1',
      port: 1883,
      settings: { mqttProtocol: 'mqtt', mqttCheckType: 'json-query', ignoreTls: false },
    });
    expect(await check(monitor.id)).toEqual({ status: 'up', error: null });

    await edit(monitor.id, { mqttPublishMessage: '{"status":"degraded"}' });
    expect(await check(monitor.id)).toEqual({ status: 'down', error: '$.status eq "ok" failed: got "degraded"' });

    await edit(monitor.id, { mqttPublishMessage: '{"status":"ok"}' });
    expect(await check(monitor.id)).toEqual({ status: 'up', error: null });
  });

  it('is down naming the keyword the message lacks', async () => {
    const monitor = await create(shared({ port: 1883, mqttPublishMessage: 'offline', mqttSuccessMessage: 'online' }));
    expect(await check(monitor.id)).toEqual({
      status: 'down',
      error: `Message on ${monitor.settings?.mqttTopic} does not contain "online": offline`,
    });
  });

  it('masks the password in reads, keeps it on an edit to the same broker, and is refused a wrong one', async () => {
    const monitor = await create(own('mqtt'));
    expect(monitor.settings).toMatchObject({ mqttUsername: broker.username, mqttPassword: SECRET_MASK });
    const list = await api().get('/api/monitors').set(admin.auth).expect(200);
    expect(JSON.stringify(list.body)).not.toContain(broker.password);
    expect(await check(monitor.id)).toEqual({ status: 'up', error: null });

    await edit(monitor.id, { name: 'broker (renamed)', mqttPassword: SECRET_MASK });
    expect(await check(monitor.id)).toEqual({ status: 'up', error: null });

    await edit(monitor.id, { mqttPassword: 'wrong-password' });
    expect(await check(monitor.id)).toEqual({ status: 'down', error: 'The broker refused the connection: not authorized' });
  });

  it.each(['mqtts', 'wss'] as const)('tests a check over %s, keeping the certificate it saw', async (protocol) => {
    const { body } = await api()
      .post('/api/monitors/test')
      .set(admin.auth)
      .send({ name: 'tls', ...own(protocol, { ignoreTls: true, mqttWebsocketPath: '/mqtt' }) })
      .expect(200);
    expect(body.result).toMatchObject({ ok: true, error: null });
    const strict = await create(own(protocol));
    expect(await check(strict.id)).toEqual({ status: 'down', error: 'TLS error: self-signed certificate' });
    const { body: read } = await api().get(`/api/monitors/${strict.id}`).set(admin.auth).expect(200);
    expect(read.monitor.certificate).toMatchObject({ subject: 'CN=localhost, O=Vigil Tests' });
  });

  it('tests a check over WebSocket with an assertion on the body', async () => {
    const { body } = await api()
      .post('/api/monitors/test')
      .set(admin.auth)
      .send({ name: 'ws', ...own('ws', { assertions: [{ source: 'body', operator: 'eq', value: 'online' }] }) })
      .expect(200);
    expect(body.result).toMatchObject({ ok: true, error: null });
    expect(body.result.assertions).toEqual([expect.objectContaining({ ok: true, actual: 'online' })]);
  });

  it.each([
    ['a broker that never answers', () => silent.port, 'No CONNACK within 2 s'],
    ['a broker sending a 16 MiB message', () => hostile.port, 'MQTT message larger than 64 KiB'],
  ])('is down within the timeout, named, against %s', async (_case, port, error) => {
    const monitor = await create(shared({ port: port(), timeout: 2, interval: 60 }));
    const started = Date.now();
    expect(await check(monitor.id)).toEqual({ status: 'down', error });
    expect(Date.now() - started).toBeLessThan(9000);
  });

  it.each([
    // The shared columns answer with their own codes (the existing DTO rules); the settings name the field.
    [{ mqttTopic: 'a' }, 'monitors.hostnameRequired', null],
    [{ hostname: 'broker.lan', mqttTopic: 'a', port: 70_000 }, 'monitors.portInvalid', null],
    [{ hostname: 'broker.lan' }, 'notifications.fieldRequired', 'mqttTopic'],
    [{ hostname: 'broker.lan', mqttTopic: 'a/#/b' }, 'monitors.mqttTopicInvalid', 'mqttTopic'],
    [{ hostname: 'broker.lan', mqttTopic: 'a/+', mqttPublishMessage: 'x' }, 'monitors.mqttPublishWildcard', 'mqttPublishMessage'],
    [{ hostname: 'broker.lan', mqttTopic: 'a', mqttProtocol: 'http' }, 'notifications.fieldSelect', 'mqttProtocol'],
    [{ hostname: 'broker.lan', mqttTopic: 'a', mqttCheckType: 'regex' }, 'notifications.fieldSelect', 'mqttCheckType'],
    [{ hostname: 'broker.lan', mqttTopic: 'a', mqttWebsocketPath: 'mqtt' }, 'notifications.fieldInvalid', 'mqttWebsocketPath'],
  ])('refuses %j with %s', async (fields: Record<string, unknown>, code: string, field: string | null) => {
    const { body } = await api()
      .post('/api/monitors')
      .set(admin.auth)
      .send({ name: 'bad', type: 'mqtt', ...fields })
      .expect(400);
    expect(body).toMatchObject({ success: false, code, ...(field && { field }) });
  });
});
