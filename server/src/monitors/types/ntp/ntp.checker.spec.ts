import { createSocket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import { AddressDenyList } from '../../../common/outbound';
import type { AddedCheckTarget } from '../../checkers/checker';
import { clockOffset, type NtpReply } from './ntp-packet';
import { NtpChecker } from './ntp.checker';
import { startNtpServer, type FakeNtpServer } from './ntp-server.testing';

const ntpTarget = (port: number | null, fields: Partial<AddedCheckTarget<'ntp'>> = {}) =>
  ({
    id: 1,
    type: 'ntp',
    scope: 'admin',
    hostname: '127.0.0.1',
    port,
    url: '',
    timeout: 5,
    assertions: [],
    settings: {},
    ...fields,
  }) as AddedCheckTarget<'ntp'>;

describe('NtpChecker', () => {
  const sut = new NtpChecker({ outbound: AddressDenyList.parse('127.0.0.2/32') });
  let server: FakeNtpServer;

  beforeAll(async () => {
    server = await startNtpServer();
  });
  afterAll(() => server.close());
  const behave = (behaviour: Partial<FakeNtpServer['behaviour']>) =>
    (server.behaviour = { ...server.behaviour, answer: 'normal', clockOffsetMs: 0, stratum: 2, leap: 0, strayFirst: false, ...behaviour });

  it('is up with the offset, stratum and root dispersion of a synchronised server', async () => {
    behave({});
    const result = await sut.check(ntpTarget(server.port));
    expect(result).toMatchObject({ ok: true, error: null, statusCode: null });
    expect(result.responseTime).toEqual(expect.any(Number));
    expect(result.observed.metrics).toEqual({ offset: expect.any(Number), stratum: 2, rootDispersion: 12.497 });
    expect(result.observed.metrics?.offset).toBeLessThan(20);
  });

  it.each([
    ['ahead of', 2500],
    ['behind', -3000],
  ])('reports how far a server %s our clock is, either way, as a positive offset', async (_case, clockOffsetMs) => {
    behave({ clockOffsetMs });
    const { ok, observed } = await sut.check(ntpTarget(server.port));
    expect(ok).toBe(true);
    expect(Math.abs(Number(observed.metrics?.offset) - Math.abs(clockOffsetMs))).toBeLessThan(20);
  });

  it.each([
    ['a kiss-o-death RATE', { stratum: 0, refId: 'RATE' }, "NTP kiss-o'-death: RATE (rate exceeded, asking too often)"],
    ['an unknown kiss code', { stratum: 0, refId: 'XYZW' }, "NTP kiss-o'-death: XYZW"],
    ['the leap indicator 3', { leap: 3, stratum: 3 }, 'The NTP server is not synchronised (leap indicator 3, stratum 3)'],
    ['stratum 16', { stratum: 16 }, 'The NTP server is not synchronised (leap indicator 0, stratum 16)'],
  ])('fails with a named error on %s', async (_case, behaviour, error) => {
    behave(behaviour);
    expect(await sut.check(ntpTarget(server.port))).toMatchObject({ ok: false, error, responseTime: null });
  });

  it('ignores a datagram answering another request (a spoofed kiss-o-death) and takes the real reply', async () => {
    behave({ strayFirst: true });
    expect(await sut.check(ntpTarget(server.port))).toMatchObject({ ok: true, observed: { metrics: { stratum: 2 } } });
  });

  it('times out on a server that never answers', async () => {
    behave({ answer: 'silent' });
    const before = server.requests;
    expect(await sut.check(ntpTarget(server.port, { timeout: 1 }))).toMatchObject({ ok: false, error: 'Timeout after 1 s' });
    expect(server.requests).toBe(before + 1);
  });

  it('fails at once when nothing listens on the port (ICMP port unreachable)', async () => {
    const closed = createSocket('udp4');
    await new Promise<void>((resolve) => closed.bind(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect(await sut.check(ntpTarget(port))).toMatchObject({ ok: false, error: 'No NTP server answers on this port (port unreachable)' });
  });

  it('refuses a denied address before sending anything', async () => {
    const result = await sut.check(ntpTarget(server.port, { hostname: '127.0.0.2' }));
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/OUTBOUND_DENY/);
  });

  it('judges a name by the address it resolves to', async () => {
    const strict = new NtpChecker({ outbound: AddressDenyList.parse('127.0.0.0/8, ::1') });
    const result = await strict.check(ntpTarget(server.port, { hostname: 'localhost' }));
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/OUTBOUND_DENY/);
  });

  it('connects first to port 123 unless another is set', () => {
    expect(sut.endpoint(ntpTarget(null, { hostname: 'time.example' }))).toEqual({ host: 'time.example', port: 123 });
    expect(sut.endpoint(ntpTarget(1123, { hostname: 'time.example' }))).toEqual({ host: 'time.example', port: 1123 });
  });
});

describe('clockOffset', () => {
  const reply = (received: number, transmitted: number) => ({ received, transmitted }) as NtpReply;

  it.each([
    // T1, T2, T3, T4 → offset, delay (RFC 5905 8)
    [1000, 1010, 1012, 1022, 0, 20],
    [1000, 1510, 1512, 1022, 500, 20],
    [1000, 510, 512, 1022, -500, 20],
    [1000, 1000, 1000, 1000, 0, 0],
  ])('T1 %d, T2 %d, T3 %d, T4 %d: offset %d ms, delay %d ms', (t1, t2, t3, t4, offset, delay) => {
    expect(clockOffset(t1, reply(t2, t3), t4)).toEqual({ offset, delay });
  });
});
