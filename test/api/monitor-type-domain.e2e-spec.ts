import request from 'supertest';
import type { MonitorDto } from '@vigil/proto';
import { startRdapServer, type FakeRdapServer } from '../../server/src/monitors/types/domain/rdap-server.testing';
import { createUser, registerFirstAdmin, type Session } from '../factories/users';
import { startTestApp, type TestApp } from '../support/test-app';

const DAY = 86_400_000;
/** An hour past the whole days, so the days left do not depend on how long the spec takes. */
const daysFromNow = (days: number) => new Date(Date.now() + days * DAY + 3_600_000);

/**
 * Issue 33, requirement 9: a `domain` monitor reads its registration's expiry through RDAP, from the registry that the
 * bootstrap file (RDAP_BOOTSTRAP_URL, here a loopback fake) names for its TLD: the days left as `expiryDays`, an
 * expired, unknown or hostile registry as named failures, and one lookup a day per domain.
 */
describe('domain monitors', () => {
  let app: TestApp;
  let rdap: FakeRdapServer;
  let admin: Session;
  let member: Session;

  beforeAll(async () => {
    rdap = await startRdapServer(['test']);
    // Members keep the default USER_OUTBOUND_DENY (loopback refused); monitors are created as the admin.
    app = await startTestApp({ env: { RDAP_BOOTSTRAP_URL: rdap.bootstrapUrl } });
    admin = await registerFirstAdmin(app.url);
    member = await createUser(app.url, admin);
  }, 120_000);
  afterAll(async () => {
    await app?.destroy();
    await rdap?.close();
  });

  const api = () => request(app.url);
  const lookups = (domain: string) => rdap.requests.filter((path) => path === `/rdap/domain/${domain}`).length;

  async function create(body: Record<string, unknown>): Promise<MonitorDto> {
    // Paused, no retries: each check is run by hand and one failure is down at once.
    const { body: response } = await api()
      .post('/api/monitors')
      .set(admin.auth)
      .send({ type: 'domain', retries: 0, active: false, ...body })
      .expect(201);
    return response.monitor;
  }

  async function check(id: number): Promise<{ status: string; error: string | null }> {
    const { body } = await api().post(`/api/monitors/${id}/check`).set(admin.auth).expect(200);
    return { status: body.check.status, error: body.check.error };
  }

  it('is up with the days left, fails an assertion on them by name, recovers, and looks the domain up once', async () => {
    rdap.domains.set('example.test', daysFromNow(40));
    const monitor = await create({
      name: 'example',
      domainName: ' Example.test ',
      assertions: [{ source: 'expiryDays', operator: 'gt', value: 30 }],
    });
    expect(monitor).toMatchObject({
      type: 'domain',
      // The readable target, as every type's: `<type>://` and the spec's target.
      url: 'domain://example.test',
      settings: { domainName: 'Example.test', domainExpiryDays: ['30', '14', '7'] },
    });
    expect(await check(monitor.id)).toEqual({ status: 'up', error: null });

    await api()
      .put(`/api/monitors/${monitor.id}`)
      .set(admin.auth)
      .send({ assertions: [{ source: 'expiryDays', operator: 'gt', value: 60 }] })
      .expect(200);
    expect(await check(monitor.id)).toEqual({ status: 'down', error: 'expiryDays gt 60 failed: got 40' });

    await api()
      .put(`/api/monitors/${monitor.id}`)
      .set(admin.auth)
      .send({ assertions: [{ source: 'expiryDays', operator: 'gt', value: 7 }] })
      .expect(200);
    expect(await check(monitor.id)).toEqual({ status: 'up', error: null });
    // Three checks within the day: the registry was asked once.
    expect(lookups('example.test')).toBe(1);
  });

  it('tests a domain that expires within its thresholds, showing the days left', async () => {
    rdap.domains.set('soon.test', daysFromNow(5));
    const { body } = await api()
      .post('/api/monitors/test')
      .set(admin.auth)
      .send({ name: 'soon', type: 'domain', domainName: 'soon.test', assertions: [{ source: 'expiryDays', operator: 'lt', value: 7 }] })
      .expect(200);
    expect(body.result).toMatchObject({ ok: true, error: null });
    expect(body.result.assertions).toEqual([expect.objectContaining({ ok: true, actual: '5' })]);
  });

  it.each([
    ['lapsed.test', new Date('2020-05-06T00:00:00Z'), 'lapsed.test expired on 2020-05-06'],
    ['unknown.test', undefined, 'unknown.test is not registered at HOST (RDAP 404): enter the registered domain, e.g. example.com'],
    ['dateless.test', null, 'HOST gives no expiration date for dateless.test'],
    ['example.org', undefined, 'No RDAP service for .org in the bootstrap file: its registry offers no RDAP'],
    ['endless.test', 'endless' as const, 'The RDAP answer from HOST is larger than 256 KiB'],
    ['silent.test', 'silent' as const, 'Timeout after 2 s'],
  ])('is down with a named error for %s', async (domain, answer, error) => {
    if (answer !== undefined) rdap.domains.set(domain, answer);
    const monitor = await create({ name: domain, domainName: domain, timeout: 2, interval: 60 });
    expect(await check(monitor.id)).toEqual({ status: 'down', error: error.replace('HOST', new URL(rdap.bootstrapUrl).host) });
  });

  it.each([
    [{}, 'domainName', 'notifications.fieldRequired'],
    [{ domainName: 'localhost' }, 'domainName', 'notifications.fieldInvalid'],
    [{ domainName: 'https://example.test/' }, 'domainName', 'notifications.fieldInvalid'],
    [{ domainName: 'example.test', domainExpiryDays: '30, 400' }, 'domainExpiryDays', 'notifications.fieldList'],
    [{ domainName: 'example.test', domainExpiryDays: '1,2,3,4,5,6' }, 'domainExpiryDays', 'notifications.fieldList'],
  ])('refuses %j, naming the field', async (fields, field, code) => {
    const { body } = await api()
      .post('/api/monitors')
      .set(admin.auth)
      .send({ name: 'bad', type: 'domain', ...fields })
      .expect(400);
    expect(body).toMatchObject({ success: false, field, code });
  });

  it('checks a member’s monitor under the member’s outbound rules', async () => {
    const { body } = await api()
      .post('/api/monitors/test')
      .set(member.auth)
      .send({ name: 'mine', type: 'domain', domainName: 'example.test' })
      .expect(200);
    // The admin's cached answer is not lent to a scope whose rules refuse the registry.
    expect(body.result).toMatchObject({ ok: false, error: 'Address 127.0.0.1 is refused by USER_OUTBOUND_DENY' });
  });

  it('read the bootstrap file once for every domain the admin’s monitors checked', () => {
    // Runs last: the checks above asked for eight domains; the bootstrap file is kept a day.
    expect(rdap.requests.filter((path) => path === '/dns.json')).toHaveLength(1);
  });
});
