import { AddressDenyList } from '../../../common/outbound';
import type { AddedCheckTarget } from '../../checkers/checker';
import { asciiDomain, DomainChecker } from './domain.checker';
import { expirationOf, parseBootstrap, registryOf } from './rdap.client';
import { startRdapServer, type FakeRdapServer } from './rdap-server.testing';

const DAY = 86_400_000;
const daysFromNow = (days: number) => new Date(Date.now() + days * DAY + 3_600_000);

const target = (domainName: string, fields: Partial<AddedCheckTarget<'domain'>> = {}): AddedCheckTarget<'domain'> => ({
  id: 1,
  type: 'domain',
  scope: 'admin',
  timeout: 2,
  assertions: [],
  hostname: '',
  port: null,
  url: '',
  settings: { domainName, domainExpiryDays: ['30', '14', '7'] },
  ...fields,
});

describe('DomainChecker', () => {
  let fake: FakeRdapServer;
  let clock: number;
  let sut: DomainChecker;
  const checker = (deny = '') =>
    new DomainChecker(
      { config: { monitors: { rdapBootstrapUrl: fake.bootstrapUrl } } as never, outbound: AddressDenyList.parse(deny) },
      () => clock,
    );

  beforeEach(async () => {
    fake = await startRdapServer(['test', 'co.test']);
    clock = Date.now();
    sut = checker();
  });
  afterEach(async () => {
    await sut.close();
    await fake.close();
  });

  it('is up with the days left before the registration expires, and the registration for expiry alerts', async () => {
    const expiresAt = daysFromNow(40);
    fake.domains.set('example.test', expiresAt);
    const result = await sut.check(target('Example.TEST.'));
    expect(result).toMatchObject({ ok: true, statusCode: 200, error: null, observed: { metrics: { expiryDays: 40 } } });
    expect(result.observed.domainExpiry).toEqual({ domain: 'example.test', expiresAt });
    expect(fake.requests).toEqual(['/dns.json', '/rdap/domain/example.test']);
  });

  it('is down, naming the date, once the registration has expired', async () => {
    fake.domains.set('lapsed.test', new Date('2020-05-06T00:00:00Z'));
    const result = await sut.check(target('lapsed.test'));
    expect(result).toMatchObject({ ok: false, error: 'lapsed.test expired on 2020-05-06' });
    expect(result.observed.domainExpiry).toEqual({ domain: 'lapsed.test', expiresAt: new Date('2020-05-06T00:00:00Z') });
    expect(result.observed.metrics?.expiryDays).toBeLessThan(0);
  });

  it.each([
    [
      'unknown.test',
      undefined,
      'unknown.test is not registered at 127.0.0.1:PORT (RDAP 404): enter the registered domain, e.g. example.com',
    ],
    ['dateless.test', null, '127.0.0.1:PORT gives no expiration date for dateless.test'],
    ['broken.test', 'error' as const, 'The RDAP service 127.0.0.1:PORT answered HTTP 503 for broken.test'],
    ['example.org', undefined, 'No RDAP service for .org in the bootstrap file: its registry offers no RDAP'],
    ['localhost', undefined, 'The domain name is not a valid domain name'],
  ])('names the failure for %s', async (domain, answer, error) => {
    if (answer !== undefined) fake.domains.set(domain, answer);
    const result = await sut.check(target(domain));
    expect(result.ok).toBe(false);
    expect(result.error).toBe(error.replace('PORT', new URL(fake.bootstrapUrl).port));
  });

  it('asks the registry of the longest listed suffix', async () => {
    fake.domains.set('shop.co.test', daysFromNow(3));
    expect(await sut.check(target('shop.co.test'))).toMatchObject({ ok: true, observed: { metrics: { expiryDays: 3 } } });
  });

  it('looks a domain up once a day, the bootstrap file included, whatever its answer', async () => {
    fake.domains.set('example.test', daysFromNow(40));
    await sut.check(target('example.test'));
    await sut.check(target('unknown.test'));
    fake.domains.set('example.test', daysFromNow(400));
    clock += DAY - 1000;
    expect((await sut.check(target('example.test'))).observed.metrics?.expiryDays).toBe(40);
    await sut.check(target('unknown.test'));
    expect(fake.requests).toEqual(['/dns.json', '/rdap/domain/example.test', '/rdap/domain/unknown.test']);
    clock += 2000;
    expect((await sut.check(target('example.test'))).observed.metrics?.expiryDays).toBe(400);
    expect(fake.requests.slice(3)).toEqual(['/dns.json', '/rdap/domain/example.test']);
  });

  it('shares one lookup among checks of the same domain that start together', async () => {
    fake.domains.set('example.test', daysFromNow(40));
    const results = await Promise.all([1, 2, 3].map(() => sut.check(target('example.test'))));
    expect(results.every((result) => result.ok)).toBe(true);
    expect(fake.requests).toEqual(['/dns.json', '/rdap/domain/example.test']);
  });

  it('tries again at the next check after a failed lookup', async () => {
    fake.domains.set('flaky.test', 'error');
    expect((await sut.check(target('flaky.test'))).ok).toBe(false);
    fake.domains.set('flaky.test', daysFromNow(20));
    expect(await sut.check(target('flaky.test'))).toMatchObject({ ok: true, observed: { metrics: { expiryDays: 20 } } });
  });

  it('cuts an endless answer off at its size limit', async () => {
    fake.domains.set('endless.test', 'endless');
    const result = await sut.check(target('endless.test', { timeout: 10 }));
    expect(result).toMatchObject({ ok: false, error: `The RDAP answer from ${new URL(fake.bootstrapUrl).host} is larger than 256 KiB` });
  });

  it('cuts an endless bootstrap file off at its size limit', async () => {
    fake.bootstrapOverride = 'endless';
    const result = await sut.check(target('example.test', { timeout: 10 }));
    expect(result).toMatchObject({
      ok: false,
      error: `The RDAP bootstrap file from ${new URL(fake.bootstrapUrl).host} is larger than 1024 KiB`,
    });
  });

  it('gives up on a registry that never answers within the timeout', async () => {
    fake.domains.set('silent.test', 'silent');
    const started = Date.now();
    const result = await sut.check(target('silent.test', { timeout: 1 }));
    expect(result).toMatchObject({ ok: false, error: 'Timeout after 1 s' });
    expect(Date.now() - started).toBeLessThan(8000);
  });

  it('refuses a bootstrap that is not one', async () => {
    fake.bootstrapOverride = '{"hello":"world"}';
    const result = await sut.check(target('example.test'));
    expect(result.error).toBe(`The RDAP bootstrap file ${fake.bootstrapUrl} is not a domain bootstrap (RFC 9224)`);
  });

  it('connects under the outbound rules of the monitor', async () => {
    await sut.close();
    sut = checker('127.0.0.0/8');
    const result = await sut.check(target('example.test'));
    expect(result).toMatchObject({ ok: false, error: 'Address 127.0.0.1 is refused by OUTBOUND_DENY' });
    expect(fake.requests).toEqual([]);
  });

  it('names no endpoint to judge before saving: the registry is not the monitor’s choice', () => {
    expect(sut.endpoint()).toBeNull();
  });
});

describe('RDAP reading', () => {
  it('prefers a registry’s https address and adds the trailing slash', () => {
    const bootstrap = parseBootstrap(
      JSON.stringify({
        services: [
          [
            ['com', 'net'],
            ['http://rdap.example/v1', 'https://rdap.example/v1'],
          ],
          'junk',
        ],
      }),
    );
    expect(registryOf(bootstrap!, 'a.b.com')).toBe('https://rdap.example/v1/');
  });

  it.each([
    [{ events: [{ eventAction: 'expiration', eventDate: '2030-01-02T03:04:05Z' }] }, new Date('2030-01-02T03:04:05Z')],
    [
      {
        events: [
          { eventAction: 'EXPIRATION', eventDate: 'soon' },
          { eventAction: 'expiration', eventDate: '2031-01-01' },
        ],
      },
      new Date('2031-01-01'),
    ],
    [{ events: [{ eventAction: 'registration', eventDate: '2030-01-02' }] }, null],
    [{ events: 'none' }, null],
    [null, null],
  ])('reads the expiration of %j', (record, expected) => {
    expect(expirationOf(record)).toEqual(expected);
  });

  it.each([
    ['Bücher.Example', 'xn--bcher-kva.example'],
    ['example.com.', 'example.com'],
    ['com', null],
    ['exa mple.com', null],
  ])('writes %s as registries know it', (name, expected) => {
    expect(asciiDomain(name)).toBe(expected);
  });
});
