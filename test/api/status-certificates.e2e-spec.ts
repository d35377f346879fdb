import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import type { MonitorDto, PublicMonitor } from '@vigil/proto';
import { createTestAuthority, daysFromNow } from '../../server/src/monitors/checkers/fakes/certificates.testing';
import { startTlsServer, type FakeTlsServer } from '../../server/src/monitors/checkers/fakes/tls-server.testing';
import { createUser, registerFirstAdmin, Session } from '../factories/users';
import { startFakeNotifier, type FakeNotifier } from '../support/fake-notifier';
import { startTestApp, TestApp, USERS_REACH_LOOPBACK } from '../support/test-app';
import { sleep, waitFor } from '../support/wait';

/**
 * A TLS monitor's certificate end to end: its days left on the status page and the wall (patched into the snapshot by
 * each check, with no target, token or connection string beside them), and `certificate.expiring` sent once per
 * threshold per certificate however many checks see it, afresh for a new certificate. The server trusts the test's
 * own certificate authority through NODE_EXTRA_CA_CERTS.
 */
describe('certificates on the status page and their expiry alert', () => {
  const authority = createTestAuthority();
  const caDir = mkdtempSync(join(tmpdir(), 'vigil-ca-'));
  const fiveDays = authority.issue({ validTo: daysFromNow(5) });
  let app: TestApp;
  let admin: Session;
  let member: Session;
  let tls: FakeTlsServer;
  let fake: FakeNotifier;

  beforeAll(async () => {
    writeFileSync(join(caDir, 'ca.pem'), authority.cert);
    [tls, fake] = await Promise.all([startTlsServer(fiveDays), startFakeNotifier()]);
    app = await startTestApp({
      env: { ...USERS_REACH_LOOPBACK, NODE_EXTRA_CA_CERTS: join(caDir, 'ca.pem'), NOTIFICATION_RETRY_BASE_MS: '300' },
    });
    admin = await registerFirstAdmin(app.url);
    member = await createUser(app.url, admin);
  });
  afterAll(async () => {
    await app?.destroy();
    await Promise.all([tls?.close(), fake?.close()]);
    rmSync(caDir, { recursive: true, force: true });
  });

  const api = () => request(app.url);

  async function create(body: Record<string, unknown>): Promise<MonitorDto> {
    // An hour apart: only the checks the test asks for run.
    const { body: response } = await api()
      .post('/api/monitors')
      .set(member.auth)
      .send({ retries: 0, interval: 3600, ...body })
      .expect(201);
    return response.monitor;
  }

  async function check(id: number): Promise<MonitorDto> {
    const { body } = await api().post(`/api/monitors/${id}/check`).set(member.auth).expect(200);
    return body.monitor;
  }

  const tlsMonitor = (name: string, certExpiryDays: number[]) =>
    create({ name, type: 'tls', hostname: 'localhost', port: tls.port, certExpiryDays });

  async function statusItem(id: number): Promise<{ item: PublicMonitor | undefined; text: string }> {
    const { body, text } = await api().get('/api/status/data').expect(200);
    return { item: body.data.monitors.find((m: PublicMonitor) => m.id === id), text };
  }

  it('shows the certificate days on the status page and the wall, patched by each check, and no secret', async () => {
    tls.setCertificate(fiveDays);
    const edge = await tlsMonitor('edge cert', [21, 7]);
    const push = await create({ name: 'nightly job', type: 'push' });
    const database = await create({ name: 'orders db', type: 'postgres', connectionString: 'postgres://app:pw-9f3k@127.0.0.1:1/orders' });
    const plain = await create({ name: 'plain tcp', type: 'tcp', hostname: 'tcp-target.internal', port: 8443 });
    await api()
      .post('/api/status/config')
      .set(member.auth)
      .send({ title: 'Certs', monitors: [edge.id, push.id, database.id, plain.id], agents: [] })
      .expect(200);
    await check(edge.id);

    const first = await statusItem(edge.id);
    expect(first.item).toMatchObject({ type: 'tls', certificate_days: 4, cert_expiry_days: [21, 7] });
    // The snapshot is now held: a check with a renewed certificate patches the days into it.
    tls.setCertificate(authority.issue({ validTo: daysFromNow(40.5) }));
    await check(edge.id);
    expect((await statusItem(edge.id)).item).toMatchObject({ type: 'tls', certificate_days: 40 });

    const { body, text } = await api().get('/api/status/data').expect(200);
    const byId = new Map(body.data.monitors.map((m: PublicMonitor) => [m.id, m]));
    expect(byId.get(push.id)).toMatchObject({ type: 'push' });
    expect(byId.get(push.id)).not.toHaveProperty('certificate_days');
    expect(byId.get(database.id)).toMatchObject({ type: 'postgres' });
    expect(byId.get(plain.id)).toMatchObject({ type: 'tcp' });

    const { body: key } = await api().post('/api/wall/keys').set(admin.auth).send({ name: 'NOC' }).expect(201);
    const wall = await api().get(`/api/wall/data?key=${key.secret}`).expect(200);
    expect(wall.body.data.monitors.find((m: PublicMonitor) => m.id === edge.id)).toMatchObject({ certificate_days: 40 });

    for (const payload of [text, wall.text]) {
      for (const secret of [push.push_token!, 'pw-9f3k', 'postgres://', '127.0.0.1', 'localhost', 'tcp-target.internal', `:${tls.port}`]) {
        expect(payload).not.toContain(secret);
      }
    }
  });

  it('sends certificate.expiring once per threshold per certificate, afresh for a new one', async () => {
    const channel = await api()
      .post('/api/notifications/channels')
      .set(member.auth)
      .send({ name: 'hook', type: 'webhook', enabled: true, config: JSON.stringify({ url: `${fake.url}/hook/certs` }) })
      .expect(201);
    await api()
      .post('/api/notifications/settings')
      .set(member.auth)
      .send({ target_type: 'global-monitor', enabled: true, on_certificate_expiry: true, channels: JSON.stringify([channel.body.data.id]) })
      .expect(200);
    tls.setCertificate(fiveDays);
    const monitor = await tlsMonitor('expiring soon', [21, 7]);
    const expiring = () => fake.of('webhook', '/hook/certs').filter((r) => r.json.event === 'certificate.expiring');

    for (let i = 0; i < 4; i++) expect(await check(monitor.id)).toMatchObject({ status: 'up', certificate: { days_remaining: 4 } });
    await waitFor(
      async () => expiring().length,
      (n) => n >= 1,
    );
    await sleep(1500);
    // 4 days left is past both thresholds: the nearer one (7) is announced, 21 is marked without a message of its own.
    expect(expiring()).toHaveLength(1);
    expect(expiring()[0].json).toMatchObject({ severity: 'alert', target: { name: 'expiring soon' } });
    expect(expiring()[0].json.text).toMatch(/alert at 7 days|提醒阈值 7 天/);

    tls.setCertificate(authority.issue({ validTo: daysFromNow(5) }));
    for (let i = 0; i < 3; i++) await check(monitor.id);
    await waitFor(
      async () => expiring().length,
      (n) => n >= 2,
    );
    await sleep(1500);
    expect(expiring()).toHaveLength(2);
    expect(expiring()[1].json.text).toMatch(/alert at 7 days|提醒阈值 7 天/);
    expect(fake.of('webhook', '/hook/certs').map((r) => r.json.event)).toEqual(['certificate.expiring', 'certificate.expiring']);
  });
});
