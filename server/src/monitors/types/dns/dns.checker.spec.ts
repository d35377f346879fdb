import type { DnsRecordType } from '@vigil/proto';
import { AddressDenyList } from '../../../common/outbound';
import type { CheckTarget } from '../../checkers/checker';
import { DnsChecker } from './dns.checker';
import { startDnsServer, type FakeDnsServer } from '../../checkers/fakes/dns-server.testing';

describe('DnsChecker', () => {
  const sut = new DnsChecker({ outbound: AddressDenyList.parse('127.0.0.2/32') });
  let server: FakeDnsServer;
  const target = (hostname: string, dnsRecordType: DnsRecordType, fields: Partial<CheckTarget<'dns'>> = {}): CheckTarget<'dns'> => ({
    id: 1,
    scope: 'admin',
    type: 'dns',
    hostname,
    dnsRecordType,
    dnsServer: server.address,
    timeout: 2,
    assertions: [],
    ...fields,
  });

  beforeAll(async () => {
    server = await startDnsServer({
      'example.test': {
        A: ['192.0.2.10', '192.0.2.11'],
        AAAA: ['2001:db8::1'],
        MX: [
          { priority: 10, exchange: 'mail.example.test' },
          { priority: 20, exchange: 'backup.example.test' },
        ],
        TXT: [['v=spf1 ', '-all'], ['hello']],
        NS: ['ns1.example.test'],
        SOA: {
          mname: 'ns1.example.test',
          rname: 'admin.example.test',
          serial: 2026112401,
          refresh: 7200,
          retry: 900,
          expire: 1209600,
          minimum: 300,
        },
        CAA: [{ flags: 0, tag: 'issue', value: 'letsencrypt.org' }],
      },
      'www.example.test': { CNAME: ['example.test'] },
      '_sip._tcp.example.test': { SRV: [{ priority: 10, weight: 60, port: 5060, target: 'sip.example.test' }] },
      '10.2.0.192.in-addr.arpa': { PTR: ['host.example.test'] },
    });
  });
  afterAll(() => server.close());

  it.each<[string, DnsRecordType, string[]]>([
    ['example.test', 'A', ['192.0.2.10', '192.0.2.11']],
    ['example.test', 'AAAA', ['2001:db8::1']],
    ['www.example.test', 'CNAME', ['example.test']],
    ['example.test', 'MX', ['10 mail.example.test', '20 backup.example.test']],
    ['example.test', 'TXT', ['v=spf1 -all', 'hello']],
    ['example.test', 'NS', ['ns1.example.test']],
    ['example.test', 'SOA', ['ns1.example.test admin.example.test 2026112401 7200 900 1209600 300']],
    ['_sip._tcp.example.test', 'SRV', ['10 60 5060 sip.example.test']],
    ['example.test', 'CAA', ['0 issue letsencrypt.org']],
    ['192.0.2.10', 'PTR', ['host.example.test']],
  ])('answers %s %s as texts, in the order received', async (hostname, type, answers) => {
    const result = await sut.check(target(hostname, type));
    expect(result).toMatchObject({ ok: true, statusCode: null, error: null, observed: { dnsAnswers: answers } });
    expect(result.responseTime).toEqual(expect.any(Number));
  });

  it('fails a name that does not exist with NXDOMAIN', async () => {
    expect(await sut.check(target('missing.example.test', 'A'))).toMatchObject({
      ok: false,
      responseTime: null,
      error: 'NXDOMAIN: missing.example.test does not exist',
      observed: {},
    });
  });

  it('fails a name without records of the type', async () => {
    expect(await sut.check(target('www.example.test', 'MX'))).toMatchObject({ ok: false, error: 'No MX record for www.example.test' });
  });

  it('follows the answers as they change', async () => {
    server.setZone({ 'example.test': { A: ['192.0.2.99'] } });
    try {
      expect((await sut.check(target('example.test', 'A'))).observed.dnsAnswers).toEqual(['192.0.2.99']);
    } finally {
      server.setZone({ 'example.test': { A: ['192.0.2.10', '192.0.2.11'] } });
    }
  });

  it.each([
    ['servfail', 'SERVFAIL: the DNS server failed to answer'],
    ['refused', 'REFUSED: the DNS server refused the query'],
    ['drop', 'Timeout after 1 s'],
  ] as const)('names a server that answers %s', async (mode, error) => {
    server.setMode(mode);
    try {
      const started = Date.now();
      expect(await sut.check(target('example.test', 'A', { timeout: 1 }))).toMatchObject({ ok: false, error });
      expect(Date.now() - started).toBeLessThan(2500);
    } finally {
      server.setMode('normal');
    }
  });

  it.each<DnsRecordType>(['A', 'AAAA', 'MX', 'SRV', 'CAA', 'TXT', 'SOA'])(
    'fails a short %s answer in words, not with a RangeError',
    async (type) => {
      server.setZone({
        'short.test': {
          A: ['192.0.2.10'],
          AAAA: ['2001:db8::1'],
          MX: [{ priority: 10, exchange: 'mail.example.test' }],
          SRV: [{ priority: 10, weight: 60, port: 5060, target: 'sip.example.test' }],
          CAA: [{ flags: 0, tag: 'issue', value: 'letsencrypt.org' }],
          TXT: [['v=spf1 -all']],
          SOA: { mname: 'ns1.test', rname: 'admin.test', serial: 1, refresh: 2, retry: 3, expire: 4, minimum: 5 },
        },
      });
      server.setMode('short');
      try {
        expect(await sut.check(target('short.test', type))).toMatchObject({
          ok: false,
          error: `Bad DNS query or answer (Malformed DNS answer: ${type} record of 2 bytes)`,
        });
      } finally {
        server.setMode('normal');
        server.setZone({ 'example.test': { A: ['192.0.2.10', '192.0.2.11'] } });
      }
    },
  );

  it('refuses a denied DNS server without asking it', async () => {
    const asked = server.queries.length;
    const result = await sut.check(target('example.test', 'A', { dnsServer: `127.0.0.2:${server.port}` }));
    expect(result).toMatchObject({ ok: false, error: 'Address 127.0.0.2 is refused by OUTBOUND_DENY' });
    expect(server.queries.length).toBe(asked);
  });

  it('takes the server as host[:port], IPv6 in brackets', async () => {
    expect((await sut.check(target('example.test', 'A', { dnsServer: server.address }))).ok).toBe(true);
    const ipv6 = await sut.check(target('example.test', 'A', { dnsServer: `[::1]:${server.port}`, timeout: 1 }));
    // The fake listens on IPv4 only: the IPv6 form is parsed and asked, and nothing answers there.
    expect(ipv6.ok).toBe(false);
    expect(await sut.check(target('example.test', 'A', { dnsServer: 'not a server' }))).toMatchObject({
      ok: false,
      error: 'Invalid DNS server "not a server"',
    });
  });
});
