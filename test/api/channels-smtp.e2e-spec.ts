import request from 'supertest';
import { SECRET_MASK } from '@vigil/proto';
import { startSmtpServer, type FakeSmtpServer } from '../../server/src/mail/fake-smtp-server.testing';
import { createUser, registerFirstAdmin, Session } from '../factories/users';
import { startTargetServer, TargetServer } from '../support/target-server';
import { startTestApp, TestApp, USERS_REACH_LOOPBACK } from '../support/test-app';
import { sleep, waitFor } from '../support/wait';

const LOGIN = { username: 'vigil@example.com', password: 'smtp-Passw0rd-e2e!' };

/**
 * The `smtp` channel end to end: Vigil's mail transport sends to a real SMTP server on loopback (smtp-server), which
 * the admin rules of the outbound policy let deliveries reach (only users' monitors are kept off loopback).
 */
describe('channels: smtp', () => {
  let app: TestApp;
  let member: Session;
  let starttls: FakeSmtpServer;
  let plain: FakeSmtpServer;
  let target: TargetServer;

  beforeAll(async () => {
    [starttls, plain, target] = await Promise.all([
      startSmtpServer({ mode: 'starttls', login: LOGIN }),
      startSmtpServer({ mode: 'plain' }),
      startTargetServer(),
    ]);
    app = await startTestApp({ env: { ...USERS_REACH_LOOPBACK, NOTIFICATION_RETRY_BASE_MS: '300' } });
    const admin = await registerFirstAdmin(app.url);
    member = await createUser(app.url, admin);
  });
  afterAll(async () => {
    await app?.destroy();
    await Promise.all([starttls?.close(), plain?.close(), target?.close()]);
  });

  const api = () => request(app.url);
  const secured = (overrides: Record<string, unknown> = {}) => ({
    host: starttls.host,
    port: starttls.port,
    security: 'starttls',
    ...LOGIN,
    from: 'Vigil <alerts@example.com>',
    to: ['ops@example.com'],
    cc: ['lead@example.com'],
    bcc: ['audit@example.com'],
    tlsInsecure: true,
    ...overrides,
  });

  async function channel(config: Record<string, unknown>): Promise<number> {
    const { body } = await api()
      .post('/api/notifications/channels')
      .set(member.auth)
      .send({ name: `smtp ${Date.now()}`, type: 'smtp', enabled: true, language: 'en-US', config: JSON.stringify(config) })
      .expect(201);
    return body.data.id;
  }

  const update = (id: number, config: string) =>
    api()
      .put(`/api/notifications/channels/${id}`)
      .set(member.auth)
      .send({ name: 'smtp edited', type: 'smtp', enabled: true, language: 'en-US', config });

  const storedConfig = async (id: number): Promise<string> => {
    const { body } = await api().get('/api/notifications').set(member.auth).expect(200);
    expect(JSON.stringify(body)).not.toContain(LOGIN.password);
    return body.data.channels.find((one: { id: number }) => one.id === id).config;
  };

  it('sends a test over STARTTLS with a login to every recipient', async () => {
    const id = await channel(secured());

    const { body } = await api().post(`/api/notifications/channels/${id}/test`).set(member.auth).expect(200);

    expect(body).toEqual({ success: true, message: 'Test message sent', data: { status: 250, detail: 'Accepted for 3 recipients' } });
    const { envelope, user, secure, mail } = await starttls.next();
    expect({ user, secure }).toEqual({ user: LOGIN.username, secure: true });
    expect(envelope).toEqual({ from: 'alerts@example.com', to: ['ops@example.com', 'lead@example.com', 'audit@example.com'] });
    expect(mail.text).toContain('This is a test message from Vigil');
    expect(mail.html).toContain('<!DOCTYPE html>');
    expect(mail.headers.get('x-vigil-delivery')).toEqual(expect.stringMatching(/^[0-9a-f-]{36}$/));
  });

  it('sends a test in plain text without a login when security is none', async () => {
    const id = await channel({ host: plain.host, port: plain.port, security: 'none', from: 'alerts@example.com', to: 'ops@example.com' });

    await api().post(`/api/notifications/channels/${id}/test`).set(member.auth).expect(200);

    expect(await plain.next()).toMatchObject({ user: null, secure: false, envelope: { to: ['ops@example.com'] } });
  });

  it.each([
    ['the certificate is verified by default', () => ({ tlsInsecure: false }), 'TLS error: self-signed certificate'],
    [
      'the password is wrong',
      () => ({ password: 'not-the-Passw0rd' }),
      'Authentication failed (535 5.7.8 Authentication credentials invalid)',
    ],
    [
      'the server has no STARTTLS',
      () => ({ host: plain.host, port: plain.port }),
      'The server does not offer STARTTLS; refusing to send in plain text',
    ],
  ])('shows why a test failed when %s', async (_case, overrides: () => Record<string, unknown>, reason) => {
    const received = starttls.received.length + plain.received.length;
    const id = await channel(secured(overrides()));

    const { body } = await api().post(`/api/notifications/channels/${id}/test`).set(member.auth).expect(502);

    expect(body).toMatchObject({ success: false, message: `Test message failed: ${reason}` });
    expect(JSON.stringify(body)).not.toContain('Passw0rd');
    expect(starttls.received.length + plain.received.length).toBe(received);
  });

  it('mails the down and the recovery of a monitor', async () => {
    const id = await channel(secured({ cc: [], bcc: [] }));
    await api()
      .post('/api/notifications/settings')
      .set(member.auth)
      .send({ target_type: 'global-monitor', enabled: true, on_down: true, on_recovery: true, channels: JSON.stringify([id]) })
      .expect(200);
    target.respond(200);
    const { body } = await api()
      .post('/api/monitors')
      .set(member.auth)
      .send({ name: 'mailed', url: `${target.url}/mailed`, interval: 3600, retries: 0 })
      .expect(201);
    const monitorId: number = body.monitor.id;
    const status = async () => (await api().get(`/api/monitors/${monitorId}`).set(member.auth)).body.monitor.status;
    await waitFor(status, (value) => value === 'up');
    const before = starttls.received.length;

    target.respond(500);
    await api().post(`/api/monitors/${monitorId}/check`).set(member.auth);
    const down = await starttls.next(10_000);
    target.respond(200);
    await api().post(`/api/monitors/${monitorId}/check`).set(member.auth);
    const recovered = await starttls.next(10_000);
    await sleep(1000);

    expect([down.mail.subject, recovered.mail.subject]).toEqual(['[Down] mailed', '[Recovered] mailed']);
    expect(down.envelope.to).toEqual(['ops@example.com']);
    expect(starttls.received.length - before).toBe(2);
    await api()
      .post('/api/notifications/settings')
      .set(member.auth)
      .send({ target_type: 'global-monitor', enabled: false, channels: '[]' })
      .expect(200);
  });

  it('reads the password masked, keeps it when the mask comes back, and asks for it again for another server', async () => {
    const id = await channel(secured());
    const config = await storedConfig(id);
    expect(JSON.parse(config)).toMatchObject({ host: starttls.host, username: LOGIN.username, password: SECRET_MASK });

    await update(id, config).expect(200);
    await api().post(`/api/notifications/channels/${id}/test`).set(member.auth).expect(200);
    expect((await starttls.next()).user).toBe(LOGIN.username);

    for (const elsewhere of [{ host: 'localhost' }, { port: plain.port }]) {
      const { body } = await update(id, JSON.stringify({ ...JSON.parse(config), ...elsewhere })).expect(400);
      expect(body).toMatchObject({
        success: false,
        message: expect.stringMatching(/password.*Re-enter this secret: a saved one is only sent/),
      });
    }
    await update(id, JSON.stringify({ ...JSON.parse(config), host: 'localhost', password: LOGIN.password })).expect(200);
    await api().post(`/api/notifications/channels/${id}/test`).set(member.auth).expect(200);
    expect((await starttls.next()).user).toBe(LOGIN.username);
  });
});
