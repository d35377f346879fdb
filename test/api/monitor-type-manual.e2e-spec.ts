import request from 'supertest';
import { MESSAGES, type CheckDto, type MonitorDto } from '@vigil/proto';
import { createUser, registerFirstAdmin, type Session } from '../factories/users';
import { startFakeService, type FakeService } from '../support/channel-e2e';
import { startTestApp, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';

/**
 * Issue 33, requirement 10: a `manual` monitor's status is set by hand or by `POST /api/monitors/{id}/status`. It is
 * never scheduled nor checked, each change is a row of its history like a check, and it alerts like any other
 * monitor (read at a loopback webhook).
 */
describe('manual monitors', () => {
  let app: TestApp;
  let admin: Session;
  let member: Session;
  let hook: FakeService;

  beforeAll(async () => {
    [app, hook] = await Promise.all([startTestApp(), startFakeService()]);
    admin = await registerFirstAdmin(app.url);
    member = await createUser(app.url, admin);
    const { body: channel } = await api()
      .post('/api/notifications/channels')
      .set(admin.auth)
      .send({ name: 'hook', type: 'webhook', language: 'en-US', config: { url: `${hook.url}/hook` }, groupWaitSeconds: 0 })
      .expect(201);
    await api()
      .post('/api/notifications/settings')
      .set(admin.auth)
      .send({
        enabled: true,
        on_down: true,
        on_recovery: true,
        on_degraded: true,
        target_type: 'global-monitor',
        channels: [channel.data.id],
      })
      .expect(200);
  }, 120_000);
  afterAll(async () => {
    await app?.destroy();
    await hook?.close();
  });

  const api = () => request(app.url);
  const create = async (name: string): Promise<MonitorDto> =>
    (await api().post('/api/monitors').set(member.auth).send({ name, type: 'manual' }).expect(201)).body.monitor;
  const setStatus = (id: number, body: Record<string, unknown>, session: Session = member) =>
    api().post(`/api/monitors/${id}/status`).set(session.auth).send(body);
  const checks = async (id: number): Promise<CheckDto[]> =>
    (await api().get(`/api/monitors/${id}/checks`).set(member.auth).expect(200)).body.checks;
  const events = (name: string) =>
    hook
      .to('/hook')
      .map((req) => req.json)
      .filter((json) => json.target?.name === name)
      .map((json) => json.event);

  it('is created pending, with no target and no check, and stays unchecked', async () => {
    const monitor = await create('manual-new');
    expect(monitor).toMatchObject({ type: 'manual', status: 'pending', settings: {}, hostname: null, port: null });
    const check = await api().post(`/api/monitors/${monitor.id}/check`).set(member.auth).expect(400);
    expect(check.body).toEqual({ success: false, code: 'monitors.manualNoCheck', message: MESSAGES['monitors.manualNoCheck'] });
    await api().post('/api/monitors/test').set(member.auth).send({ name: 'x', type: 'manual' }).expect(400);
    expect(await checks(monitor.id)).toEqual([]);
  });

  it('takes up, degraded and down by hand, keeps each in its history and alerts on each change', async () => {
    const monitor = await create('manual-door');
    const up = await setStatus(monitor.id, { status: 'up' }).expect(200);
    expect(up.body).toMatchObject({ success: true, check: { status: 'up', error: null }, monitor: { status: 'up' } });

    const degraded = await setStatus(monitor.id, { status: 'degraded', message: '  door sticks  ' }).expect(200);
    expect(degraded.body).toMatchObject({ check: { status: 'degraded', error: 'door sticks' }, monitor: { status: 'degraded' } });

    const down = await setStatus(monitor.id, { status: 'down', message: 'door broken' }).expect(200);
    expect(down.body).toMatchObject({ check: { status: 'down', error: 'door broken' }, monitor: { status: 'down' } });
    await setStatus(monitor.id, { status: 'up', message: 'fixed' }).expect(200);

    expect((await checks(monitor.id)).map((check) => [check.status, check.error])).toEqual([
      ['up', 'fixed'],
      ['down', 'door broken'],
      ['degraded', 'door sticks'],
      ['up', null],
    ]);
    await waitFor(
      async () => events('manual-door'),
      (seen) => seen.includes('monitor.recovery'),
      20_000,
    );
    expect(events('manual-door')).toEqual(['monitor.degraded', 'monitor.down', 'monitor.recovery']);
  });

  it('refuses a bad status, a long message, another type, a paused monitor and an unknown one', async () => {
    const monitor = await create('manual-refusals');
    const refusal = (code: keyof typeof MESSAGES) => ({ success: false, code, message: MESSAGES[code] });
    expect((await setStatus(monitor.id, { status: 'pending' }).expect(400)).body).toEqual(refusal('monitors.manualStatusInvalid'));
    expect((await setStatus(monitor.id, {}).expect(400)).body).toEqual(refusal('monitors.manualStatusInvalid'));
    expect((await setStatus(monitor.id, { status: 'up', message: 'x'.repeat(5000) }).expect(400)).body).toEqual(
      refusal('monitors.messageTooLong'),
    );
    const http = (
      await api().post('/api/monitors').set(member.auth).send({ name: 'web', url: 'https://example.com', active: false }).expect(201)
    ).body.monitor;
    expect((await setStatus(http.id, { status: 'up' }).expect(400)).body).toEqual(refusal('monitors.manualOnly'));
    await api().post(`/api/monitors/${monitor.id}/pause`).set(member.auth).expect(200);
    expect((await setStatus(monitor.id, { status: 'down' }).expect(400)).body).toEqual(refusal('monitors.manualPaused'));
    await setStatus(999_999, { status: 'up' }).expect(404);
    await api().post(`/api/monitors/${monitor.id}/status`).send({ status: 'up' }).expect(401);
  });
});
