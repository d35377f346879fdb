import request from 'supertest';
import type { MonitorDto } from '@vigil/proto';
import { startRadiusServer, type FakeRadiusServer } from '../../server/src/monitors/types/radius/radius-server.testing';
import { registerFirstAdmin, type Session } from '../factories/users';
import { startTestApp, type TestApp } from '../support/test-app';

const SECRET = 'testing123';
const USER = { name: 'alice', password: 'correct horse' };

/**
 * Issue 33, requirement 8: a `radius` monitor sends an Access-Request to a RADIUS server the spec starts on loopback
 * (the `radius` package decoding and encoding): Access-Accept is up, Access-Reject down with the server's words, a
 * wrong secret or a silent server a timeout within the monitor's, a forged or garbage answer a named failure, and
 * bad settings a 400 naming the field.
 */
describe('radius monitors', () => {
  let app: TestApp;
  let server: FakeRadiusServer;
  let admin: Session;

  beforeAll(async () => {
    server = await startRadiusServer(SECRET, USER);
    // Loopback is refused to members by default (USER_OUTBOUND_DENY): monitors are created as the admin.
    app = await startTestApp();
    admin = await registerFirstAdmin(app.url);
  }, 120_000);
  beforeEach(() => {
    server.mode = 'normal';
  });
  afterAll(async () => {
    await app?.destroy();
    await server?.close();
  });

  const api = () => request(app.url);
  const radius = (fields: Record<string, unknown> = {}) => ({
    type: 'radius',
    hostname: '127.0.0.1',
    port: server.port,
    radiusUsername: USER.name,
    radiusPassword: USER.password,
    radiusSecret: SECRET,
    ...fields,
  });

  async function create(body: Record<string, unknown>): Promise<MonitorDto> {
    // Paused, no retries: each check is run by hand and one failure is down at once.
    const { body: response } = await api()
      .post('/api/monitors')
      .set(admin.auth)
      .send({ retries: 0, active: false, ...body })
      .expect(201);
    return response.monitor;
  }

  async function check(id: number): Promise<{ status: string; error: string | null }> {
    const { body } = await api().post(`/api/monitors/${id}/check`).set(admin.auth).expect(200);
    return { status: body.check.status, error: body.check.error };
  }

  it('is up on Access-Accept, down with the Reply-Message on Access-Reject, and up again with the right password', async () => {
    const monitor = await create({ name: 'wifi auth', ...radius({ radiusCalledStationId: 'AP-1' }) });
    expect(monitor).toMatchObject({
      type: 'radius',
      port: server.port,
      // The password and the shared secret are masked in every read.
      settings: { radiusUsername: USER.name, radiusPassword: '••••••••', radiusSecret: '••••••••', radiusCalledStationId: 'AP-1' },
    });
    expect(await check(monitor.id)).toEqual({ status: 'up', error: null });
    expect(server.requests.at(-1)).toMatchObject({ 'User-Name': USER.name, 'User-Password': USER.password, 'Called-Station-Id': 'AP-1' });

    await api().put(`/api/monitors/${monitor.id}`).set(admin.auth).send({ radiusPassword: 'expired password' }).expect(200);
    expect(await check(monitor.id)).toEqual({ status: 'down', error: 'Access-Reject: Unknown user or wrong password' });

    await api().put(`/api/monitors/${monitor.id}`).set(admin.auth).send({ radiusPassword: USER.password }).expect(200);
    expect(await check(monitor.id)).toEqual({ status: 'up', error: null });
  });

  it('tests a monitor without saving it', async () => {
    const { body } = await api()
      .post('/api/monitors/test')
      .set(admin.auth)
      .send({ name: 'try', ...radius({ radiusUsername: 'mallory' }) })
      .expect(200);
    expect(body.result).toMatchObject({ ok: false, error: 'Access-Reject: Unknown user or wrong password' });
  });

  it.each([
    ['a wrong shared secret (the server drops the request)', { radiusSecret: 'not-the-secret' }, 'normal' as const],
    ['a server that never answers', {}, 'silent' as const],
  ])('times out within the monitor timeout on %s', async (_case, fields, mode) => {
    server.mode = mode;
    const monitor = await create({ name: mode, ...radius(fields), timeout: 2, interval: 60 });
    const started = Date.now();
    expect(await check(monitor.id)).toEqual({
      status: 'down',
      error: 'Timeout after 2 s: no RADIUS answer (a server drops requests from clients it does not know)',
    });
    expect(Date.now() - started).toBeLessThan(9000);
  });

  it.each([
    ['forged' as const, "The RADIUS answer does not verify: the shared secret differs from the server's"],
    ['garbage' as const, 'Malformed RADIUS answer: length 65535 in a 502-byte datagram'],
  ])('fails at once, named, on a %s answer', async (mode, error) => {
    server.mode = mode;
    const monitor = await create({ name: mode, ...radius(), timeout: 10, interval: 60 });
    const started = Date.now();
    expect(await check(monitor.id)).toEqual({ status: 'down', error });
    expect(Date.now() - started).toBeLessThan(10000);
  });

  it.each([
    [{ radiusUsername: '' }, 'radiusUsername', 'notifications.fieldRequired'],
    [{ radiusPassword: undefined }, 'radiusPassword', 'notifications.fieldRequired'],
    [{ radiusSecret: ' ' }, 'radiusSecret', 'notifications.fieldRequired'],
    [{ radiusPassword: 'p'.repeat(129) }, 'radiusPassword', 'notifications.fieldText'],
    [{ radiusCallingStationId: 'a\r\nb' }, 'radiusCallingStationId', 'notifications.fieldText'],
    // The shared columns' own codes name them.
    [{ hostname: 'not a host' }, null, 'monitors.hostnameInvalid'],
    [{ port: 0 }, null, 'monitors.portInvalid'],
  ])('refuses %j, naming the field', async (fields: Record<string, unknown>, field: string | null, code: string) => {
    const { body } = await api()
      .post('/api/monitors')
      .set(admin.auth)
      .send({ name: 'bad', ...radius(fields) })
      .expect(400);
    expect(body).toMatchObject({ success: false, code, ...(field && { field }) });
  });
});
