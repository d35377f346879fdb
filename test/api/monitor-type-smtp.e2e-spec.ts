import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { SECRET_MASK, type MonitorDto } from '@vigil/proto';
import { createTestAuthority, daysFromNow } from '../../server/src/monitors/checkers/fakes/certificates.testing';
import {
  endlessBanner,
  startRawServer,
  startSmtpServer,
  type FakeRawServer,
  type FakeSmtpServer,
} from '../../server/src/monitors/types/smtp/smtp-server.testing';
import { registerFirstAdmin, type Session } from '../factories/users';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * Issue 33, requirement 5: an `smtp` monitor on the real server against a loopback mail server (`smtp-server`) with
 * STARTTLS and sign-in: up with its banner and capabilities as sources and its certificate recorded, a failing
 * assertion and a refused sign-in → down with named errors, recovery; bad settings → 400 naming the field; a hostile
 * server (an endless banner) → a bounded failure. The server trusts the test's authority through NODE_EXTRA_CA_CERTS.
 */
describe('smtp monitors', () => {
  const authority = createTestAuthority();
  const caDir = mkdtempSync(join(tmpdir(), 'vigil-smtp-ca-'));
  let app: TestApp;
  let admin: Session;
  let mail: FakeSmtpServer;
  let hostile: FakeRawServer;

  beforeAll(async () => {
    writeFileSync(join(caDir, 'ca.pem'), authority.cert);
    [app, mail, hostile] = await Promise.all([
      startTestApp({ env: { NODE_EXTRA_CA_CERTS: join(caDir, 'ca.pem') } }),
      startSmtpServer({ certificate: authority.issue({ validTo: daysFromNow(20.5) }) }),
      startRawServer(endlessBanner),
    ]);
    // Members may not reach loopback (USER_OUTBOUND_DENY): monitors are the admin's.
    admin = await registerFirstAdmin(app.url);
  }, 120_000);
  afterAll(async () => {
    await app?.destroy();
    await Promise.all([mail?.close(), hostile?.close()]);
    rmSync(caDir, { recursive: true, force: true });
  });

  const api = () => request(app.url);
  const base = () => ({ name: 'mail', type: 'smtp', hostname: 'localhost', port: mail.port, retries: 0, active: false });

  async function check(id: number): Promise<{ status: string; error: string | null; monitor: MonitorDto }> {
    const { body } = await api().post(`/api/monitors/${id}/check`).set(admin.auth).expect(200);
    return { status: body.check.status, error: body.check.error, monitor: body.monitor };
  }

  const put = (id: number, body: Record<string, unknown>) => api().put(`/api/monitors/${id}`).set(admin.auth).send(body).expect(200);

  it('is up over STARTTLS with a sign-in, then down on a failing assertion and a refused password, and recovers', async () => {
    const { body } = await api()
      .post('/api/monitors')
      .set(admin.auth)
      .send({
        ...base(),
        smtpSecurity: 'starttls',
        smtpUsername: 'user',
        smtpPassword: 'secret',
        assertions: [
          { source: 'banner', operator: 'contains', value: 'Vigil fake' },
          { source: 'capabilities', operator: 'matches', value: 'AUTH [A-Z ]*PLAIN' },
        ],
      })
      .expect(201);
    const monitor: MonitorDto = body.monitor;
    expect(monitor).toMatchObject({
      type: 'smtp',
      url: `smtp://localhost:${mail.port}`,
      settings: { smtpSecurity: 'starttls', ignoreTls: false, smtpUsername: 'user', smtpPassword: SECRET_MASK },
    });

    const up = await check(monitor.id);
    expect(up).toMatchObject({ status: 'up', error: null, monitor: { status: 'up' } });
    expect(up.monitor.certificate).toMatchObject({ subject: 'CN=localhost, O=Vigil Tests', days_remaining: 20 });
    expect(mail.signIns).toEqual(['PLAIN']);

    await put(monitor.id, { assertions: [{ source: 'banner', operator: 'contains', value: 'Postfix' }] });
    expect(await check(monitor.id)).toMatchObject({
      status: 'down',
      error: 'banner contains "Postfix" failed: got "220 mx.vigil.test ESMTP Vigil fake"',
    });

    await put(monitor.id, { assertions: [] });
    mail.setPassword('rotated');
    expect(await check(monitor.id)).toMatchObject({ status: 'down', error: 'SMTP sign-in refused: 535 Invalid username or password' });

    await put(monitor.id, { smtpPassword: 'rotated' });
    expect(await check(monitor.id)).toMatchObject({ status: 'up', error: null, monitor: { status: 'up' } });
    mail.setPassword('secret');
  });

  it('stays in plaintext for nostarttls, recording no certificate', async () => {
    const { body } = await api()
      .post('/api/monitors/test')
      .set(admin.auth)
      .send({ ...base(), smtpSecurity: 'nostarttls', assertions: [{ source: 'capabilities', operator: 'contains', value: 'STARTTLS' }] })
      .expect(200);
    expect(body.result).toMatchObject({ ok: true, error: null, certificate: null });
  });

  it.each([
    ['an unknown smtpSecurity', { smtpSecurity: 'tls' }, 'smtpSecurity', 'notifications.fieldSelect'],
    ['a username without a password', { smtpUsername: 'user' }, 'smtpPassword', 'notifications.fieldRequired'],
    ['a password without a username', { smtpPassword: 'secret' }, 'smtpUsername', 'notifications.fieldRequired'],
    [
      'a sign-in in plaintext',
      { smtpSecurity: 'nostarttls', smtpUsername: 'u', smtpPassword: 'p' },
      'smtpSecurity',
      'monitors.smtpAuthNeedsTls',
    ],
    ['a username over two lines', { smtpUsername: 'user\r\nRSET', smtpPassword: 'p' }, 'smtpUsername', 'notifications.fieldText'],
    ['a non-boolean ignoreTls', { ignoreTls: 'maybe' }, undefined, 'monitors.ignoreTlsInvalid'],
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
      'a source SMTP does not observe',
      { assertions: [{ source: 'offset', operator: 'lt', value: 1 }] },
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

  it('fails a test check on an endless banner with a named error, within the timeout', async () => {
    const started = Date.now();
    const { body } = await api()
      .post('/api/monitors/test')
      .set(admin.auth)
      .send({ ...base(), port: hostile.port, smtpSecurity: 'nostarttls', timeout: 10 })
      .expect(200);
    expect(body.result).toMatchObject({ ok: false, error: 'The SMTP reply is longer than 100 lines' });
    expect(Date.now() - started).toBeLessThan(10000);
  });
});
