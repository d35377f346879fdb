import request from 'supertest';
import type { MonitorDto } from '@vigil/proto';
import { startNtpServer, type FakeNtpServer, type NtpBehaviour } from '../../server/src/monitors/types/ntp/ntp-server.testing';
import { registerFirstAdmin, type Session } from '../factories/users';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * Issue 33, requirement 7: an `ntp` monitor on the real server against an NTP responder on UDP 127.0.0.1: up with its
 * offset, stratum and root dispersion as sources, an offset beyond the assertion's threshold and a kiss-o'-death →
 * down with named errors, recovery; a silent server → a timeout; bad settings → 400 naming the field.
 */
describe('ntp monitors', () => {
  let app: TestApp;
  let admin: Session;
  let ntp: FakeNtpServer;

  beforeAll(async () => {
    [app, ntp] = await Promise.all([startTestApp(), startNtpServer()]);
    // Members may not reach loopback (USER_OUTBOUND_DENY): monitors are the admin's.
    admin = await registerFirstAdmin(app.url);
  }, 120_000);
  afterAll(async () => {
    await app?.destroy();
    await ntp?.close();
  });

  const api = () => request(app.url);
  const base = () => ({ name: 'clock', type: 'ntp', hostname: '127.0.0.1', port: ntp.port, retries: 0, active: false });
  const behave = (behaviour: Partial<NtpBehaviour>) =>
    (ntp.behaviour = { ...ntp.behaviour, answer: 'normal', clockOffsetMs: 0, stratum: 2, leap: 0, ...behaviour });

  async function check(id: number): Promise<{ status: string; error: string | null }> {
    const { body } = await api().post(`/api/monitors/${id}/check`).set(admin.auth).expect(200);
    return { status: body.check.status, error: body.check.error };
  }

  it('is up within its thresholds, down on an offset beyond them and on a kiss-o-death, and recovers', async () => {
    behave({});
    const { body } = await api()
      .post('/api/monitors')
      .set(admin.auth)
      .send({
        ...base(),
        assertions: [
          { source: 'offset', operator: 'lt', value: 1000 },
          { source: 'stratum', operator: 'lte', value: 3 },
          { source: 'rootDispersion', operator: 'lt', value: 100 },
        ],
      })
      .expect(201);
    const monitor: MonitorDto = body.monitor;
    expect(monitor).toMatchObject({ type: 'ntp', hostname: '127.0.0.1', port: ntp.port });
    expect(await check(monitor.id)).toEqual({ status: 'up', error: null });

    // Behind by 5 s: the offset source is the distance either way.
    behave({ clockOffsetMs: -5000 });
    const late = await check(monitor.id);
    expect(late.status).toBe('down');
    const [, got] = /^offset lt 1000 failed: got ([\d.]+)$/.exec(late.error ?? '') ?? [];
    expect(Math.abs(Number(got) - 5000)).toBeLessThan(1000);

    behave({ stratum: 0, refId: 'RATE' });
    expect(await check(monitor.id)).toEqual({ status: 'down', error: "NTP kiss-o'-death: RATE (rate exceeded, asking too often)" });

    behave({ stratum: 4 });
    expect(await check(monitor.id)).toEqual({ status: 'down', error: 'stratum lte 3 failed: got 4' });

    behave({});
    expect(await check(monitor.id)).toEqual({ status: 'up', error: null });
  });

  it('defaults the port to 123', async () => {
    const { body } = await api()
      .post('/api/monitors')
      .set(admin.auth)
      .send({ ...base(), hostname: 'time.example', port: undefined })
      .expect(201);
    expect(body.monitor).toMatchObject({ port: 123 });
  });

  it('fails a test check against a silent server with a timeout, and an unsynchronised one by name', async () => {
    behave({ answer: 'silent' });
    const test = (fields: Record<string, unknown> = {}) =>
      api()
        .post('/api/monitors/test')
        .set(admin.auth)
        .send({ ...base(), ...fields })
        .expect(200);
    expect((await test({ timeout: 1, interval: 20 })).body.result).toMatchObject({ ok: false, error: 'Timeout after 1 s' });

    behave({ leap: 3 });
    expect((await test()).body.result).toMatchObject({
      ok: false,
      error: 'The NTP server is not synchronised (leap indicator 3, stratum 2)',
    });
    behave({});
  });

  it.each([
    ['no hostname', { hostname: undefined }, 'monitors.hostnameRequired'],
    ['a bad hostname', { hostname: 'not a host' }, 'monitors.hostnameInvalid'],
    ['port 0', { port: 0 }, 'monitors.portInvalid'],
    [
      'a source NTP does not observe',
      { assertions: [{ source: 'banner', operator: 'contains', value: 'x' }] },
      'monitors.assertionSourceNotForType',
    ],
  ])('refuses %s with a 400', async (_case, fields, code) => {
    const { body } = await api()
      .post('/api/monitors')
      .set(admin.auth)
      .send({ ...base(), ...fields })
      .expect(400);
    expect(body.code).toBe(code);
  });
});
