import request from 'supertest';
import type { MonitorDto, NotificationHistoryItem } from '@vigil/proto';
import { startRdapServer, type FakeRdapServer } from '../../server/src/monitors/types/domain/rdap-server.testing';
import { registerFirstAdmin, type Session } from '../factories/users';
import { startFakeService, type FakeService } from '../support/channel-e2e';
import { startTestApp, type TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';

const DAY = 86_400_000;
/** An hour past the whole days, so the days left do not depend on how long the spec takes. */
const daysFromNow = (days: number) => new Date(Date.now() + days * DAY + 3_600_000);

/**
 * Issue 33, requirement 9: a domain's registration alerts at its thresholds as a certificate does: `domain.expiring`
 * once per threshold per registration, `domain.expired` once, to the channels of the settings' "Certificate and
 * domain expiry" (read at a loopback webhook; the registry is a loopback RDAP fake).
 */
describe('domain expiry alerts', () => {
  let app: TestApp;
  let rdap: FakeRdapServer;
  let hook: FakeService;
  let admin: Session;

  beforeAll(async () => {
    [rdap, hook] = await Promise.all([startRdapServer(['test']), startFakeService()]);
    app = await startTestApp({ env: { RDAP_BOOTSTRAP_URL: rdap.bootstrapUrl } });
    admin = await registerFirstAdmin(app.url);
    const { body: channel } = await api()
      .post('/api/notifications/channels')
      .set(admin.auth)
      .send({ name: 'hook', type: 'webhook', language: 'en-US', config: { url: `${hook.url}/hook` }, groupWaitSeconds: 0 })
      .expect(201);
    await api()
      .post('/api/notifications/settings')
      .set(admin.auth)
      .send({ enabled: true, on_down: false, on_certificate_expiry: true, target_type: 'global-monitor', channels: [channel.data.id] })
      .expect(200);
  }, 120_000);
  afterAll(async () => {
    await app?.destroy();
    await Promise.all([rdap?.close(), hook?.close()]);
  });

  const api = () => request(app.url);
  const received = (name: string) =>
    hook
      .to('/hook')
      .map((req) => req.json as { event: string; text: string; target?: { name: string } })
      .filter((json) => json.target?.name === name);
  /** The notifications written for the monitor (the outbox, sent or not): complete once its check has answered. */
  const written = async (id: number): Promise<string[]> => {
    const { body } = await api().get('/api/notifications/history?target_kind=monitor').set(admin.auth).expect(200);
    return (body.items as NotificationHistoryItem[]).filter((item) => item.target_id === id).map((item) => item.event);
  };

  async function create(name: string, domainName: string): Promise<MonitorDto> {
    // Paused: each check is run by hand.
    const { body } = await api()
      .post('/api/monitors')
      .set(admin.auth)
      .send({ name, type: 'domain', domainName, active: false, retries: 0 })
      .expect(201);
    return body.monitor;
  }
  const check = async (id: number) => (await api().post(`/api/monitors/${id}/check`).set(admin.auth).expect(200)).body.check;

  it('sends one domain.expiring for the smallest threshold crossed, nothing more on the next check, and again for a new registration', async () => {
    rdap.domains.set('soon.test', daysFromNow(5));
    const monitor = await create('soon', 'soon.test');
    expect(monitor.settings).toMatchObject({ domainExpiryDays: ['30', '14', '7'] });

    expect(await check(monitor.id)).toMatchObject({ status: 'up' });
    const [first] = await waitFor(
      async () => received('soon'),
      (messages) => messages.length > 0,
    );
    expect(first).toMatchObject({ event: 'domain.expiring' });
    expect(first.text).toContain('The registration of soon.test expires on');
    expect(first.text).toContain('Days remaining: 5 (alert at 7 days)');

    // The same registration: its thresholds are all marked, so the check writes nothing more.
    expect(await check(monitor.id)).toMatchObject({ status: 'up' });
    expect(await written(monitor.id)).toEqual(['domain.expiring']);

    // Registries are asked once a day per domain, so a renewal of soon.test shows tomorrow (the medium spec proves
    // that case); the monitor moved to another registration, 20 days out, shows that marks belong to a registration.
    rdap.domains.set('later.test', daysFromNow(20));
    await api().put(`/api/monitors/${monitor.id}`).set(admin.auth).send({ domainName: 'later.test' }).expect(200);
    expect(await check(monitor.id)).toMatchObject({ status: 'up' });
    const messages = await waitFor(
      async () => received('soon'),
      (all) => all.length > 1,
    );
    expect(messages.map((m) => m.event)).toEqual(['domain.expiring', 'domain.expiring']);
    expect(messages[1].text).toContain('Days remaining: 20 (alert at 30 days)');
    expect(await written(monitor.id)).toHaveLength(2);
  });

  it('sends domain.expired once for a lapsed registration, though the check is down', async () => {
    rdap.domains.set('lapsed.test', new Date('2020-05-06T00:00:00Z'));
    const monitor = await create('lapsed', 'lapsed.test');
    expect(await check(monitor.id)).toMatchObject({ status: 'down', error: 'lapsed.test expired on 2020-05-06' });
    expect(await check(monitor.id)).toMatchObject({ status: 'down' });
    const [expired] = await waitFor(
      async () => received('lapsed'),
      (messages) => messages.length > 0,
    );
    expect(expired).toMatchObject({ event: 'domain.expired' });
    expect(expired.text).toContain('The registration of lapsed.test expired on 2020-05-06');
    expect(await written(monitor.id)).toEqual(['domain.expired']);
  });

  it('names what a hostile registry did and sends no expiry alert', async () => {
    rdap.domains.set('endless.test', 'endless');
    const monitor = await create('endless', 'endless.test');
    expect(await check(monitor.id)).toMatchObject({
      status: 'down',
      error: `The RDAP answer from ${new URL(rdap.bootstrapUrl).host} is larger than 256 KiB`,
    });
    expect(await written(monitor.id)).toEqual([]);
  });
});
