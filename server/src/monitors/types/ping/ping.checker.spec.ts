import { AddressDenyList } from '../../../common/outbound';
import type { CheckTarget } from '../../checkers/checker';
import { FpingRun, HostReplies, parseFpingOutput, runFping } from './fping';
import { PingChecker, pingResult } from './ping.checker';
import { createSilentHost, SilentHost } from '../../checkers/fakes/silent-host.testing';

const target = (hostname: string, fields: Partial<CheckTarget<'ping'>> = {}): CheckTarget<'ping'> => ({
  id: 1,
  scope: 'admin',
  type: 'ping',
  hostname,
  packetCount: 3,
  timeout: 3,
  assertions: [],
  ...fields,
});

const allow = { outbound: AddressDenyList.parse('') };

/** The real runner, recording each run it was asked for. */
function recordingRunner() {
  const runs: FpingRun[] = [];
  const runner = (run: FpingRun) => {
    runs.push(run);
    return runFping(run);
  };
  return { runs, runner };
}

describe('parseFpingOutput', () => {
  it.each([
    ['127.0.0.1 : 0.04 0.05 0.06', 3, { '127.0.0.1': { rtts: [0.04, 0.05, 0.06], note: null } }],
    [
      '10.0.0.9  : - 12.5 -\n::1       : 0.02 0.03 0.01',
      3,
      { '10.0.0.9': { rtts: [null, 12.5, null], note: null }, '::1': { rtts: [0.02, 0.03, 0.01], note: null } },
    ],
    ['198.18.0.2 : - -', 2, { '198.18.0.2': { rtts: [null, null], note: null } }],
    [
      'ICMP Host Unreachable from 10.0.0.1 for ICMP Echo sent to 10.0.0.7\n10.0.0.7 : - -',
      2,
      { '10.0.0.7': { rtts: [null, null], note: 'Host unreachable' } },
    ],
    [
      '10.9.9.9: error while sending ping: Network is unreachable',
      2,
      { '10.9.9.9': { rtts: [null, null], note: 'Network is unreachable' } },
    ],
    ['127.0.0.1 : 0.04', 3, { '127.0.0.1': { rtts: [0.04, null, null], note: null } }],
    ["fping: can't create socket (must run as root?)", 1, {}],
  ])('reads %j', (output, count, expected) => {
    expect(Object.fromEntries(parseFpingOutput(output, count))).toEqual(expected);
  });
});

describe('pingResult', () => {
  it.each<[HostReplies, ReturnType<typeof pingResult>]>([
    [
      { rtts: [1.2, 1.4, 1.9], note: null },
      { ok: true, statusCode: null, responseTime: 2, error: null, observed: { packetLoss: 0 } },
    ],
    [
      { rtts: [10, null, null], note: null },
      { ok: true, statusCode: null, responseTime: 10, error: null, observed: { packetLoss: 67 } },
    ],
    [
      { rtts: [null, null, null], note: null },
      { ok: false, statusCode: null, responseTime: null, error: '100% packet loss', observed: { packetLoss: 100 } },
    ],
    [
      { rtts: [null], note: 'Host unreachable' },
      { ok: false, statusCode: null, responseTime: null, error: 'Host unreachable', observed: { packetLoss: 100 } },
    ],
  ])('maps %j', (replies, expected) => {
    expect(pingResult(replies, 5)).toEqual(expected);
  });
});

describe('PingChecker', () => {
  it('is up for 127.0.0.1 with no loss and the average round trip', async () => {
    const sut = new PingChecker(allow);
    const result = await sut.check(target('127.0.0.1'));
    expect(result).toMatchObject({ ok: true, error: null, observed: { packetLoss: 0 } });
    expect(result.responseTime).toBeGreaterThanOrEqual(0);
    expect(result.responseTime).toBeLessThan(50);
    await sut.close();
  });

  it('pings the checks due together in one fping process, each address once', async () => {
    const { runs, runner } = recordingRunner();
    const sut = new PingChecker(allow, runner);
    const hosts = [...Array.from({ length: 20 }, (_, i) => `127.0.0.${i + 1}`), '127.0.0.1', 'localhost'];
    const results = await Promise.all(hosts.map((host) => sut.check(target(host, { packetCount: 2 }))));
    expect(results.every((result) => result.ok && result.observed.packetLoss === 0)).toBe(true);
    expect(runs).toHaveLength(1);
    expect(runs[0].addresses).toHaveLength(new Set(runs[0].addresses).size);
    expect(runs[0].count).toBe(2);
    await sut.close();
  });

  it('gathers checks started apart into one process and dates each check when its requests went out', async () => {
    const runs: Array<{ run: FpingRun; at: number }> = [];
    const sut = new PingChecker(allow, (run) => {
      runs.push({ run, at: Date.now() });
      return runFping(run);
    });
    const askedAt = Date.now();
    const first = sut.check(target('127.0.0.1', { packetCount: 1 }));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const second = sut.check(target('127.0.0.2', { packetCount: 1 }));
    const results = await Promise.all([first, second]);
    expect(runs).toHaveLength(1);
    expect(runs[0].run.addresses).toEqual(['127.0.0.1', '127.0.0.2']);
    // After the gathering (100 ms from the first check), the same time for both.
    expect(runs[0].at - askedAt).toBeGreaterThanOrEqual(90);
    expect(results[1].checkedAt).toEqual(results[0].checkedAt);
    expect(runs[0].at - results[0].checkedAt.getTime()).toBeGreaterThanOrEqual(0);
    expect(runs[0].at - results[0].checkedAt.getTime()).toBeLessThan(50);
    await sut.close();
  });

  it('keeps packet counts apart and fits every request in the timeout', async () => {
    const { runs, runner } = recordingRunner();
    const sut = new PingChecker(allow, runner);
    const started = performance.now();
    const [few, many] = await Promise.all([
      sut.check(target('127.0.0.1', { packetCount: 1 })),
      sut.check(target('127.0.0.2', { packetCount: 10, timeout: 1 })),
    ]);
    expect(performance.now() - started).toBeLessThan(1300);
    expect([few.ok, many.ok]).toEqual([true, true]);
    expect(runs.map((run) => run.count).sort((x, y) => x - y)).toEqual([1, 10]);
    const tight = runs.find((run) => run.count === 10) as FpingRun;
    expect(tight.periodMs * tight.count).toBeLessThanOrEqual(1000);
    await sut.close();
  });

  it('refuses an address denied by OUTBOUND_DENY, by IP or by name, without pinging', async () => {
    const { runs, runner } = recordingRunner();
    const sut = new PingChecker({ outbound: AddressDenyList.parse('127.0.0.0/8, ::1') }, runner);
    expect(await sut.check(target('127.0.0.5'))).toMatchObject({ ok: false, error: 'Address 127.0.0.5 is refused by OUTBOUND_DENY' });
    expect((await sut.check(target('localhost'))).error).toMatch(/^Address (127\.0\.0\.1|::1) is refused by OUTBOUND_DENY$/);
    expect(runs).toHaveLength(0);
  });

  it('fails naming the DNS failure for a name that does not resolve', async () => {
    const sut = new PingChecker(allow);
    expect(await sut.check(target('no-such-host.invalid'))).toMatchObject({ ok: false, error: 'DNS lookup failed: host not found' });
  });

  it('fails with a clear text when fping is not installed', async () => {
    const sut = new PingChecker(allow, (run) => runFping(run, '/nonexistent/fping'));
    expect(await sut.check(target('127.0.0.1'))).toMatchObject({
      ok: false,
      error: 'fping is not installed on the server (install the fping package)',
    });
  });

  describe('against a host that stops answering', () => {
    const made = createSilentHost();
    const host: SilentHost | null = 'host' in made ? made.host : null;
    const sut = new PingChecker(allow);
    afterAll(async () => {
      await sut.close();
      host?.close();
    });
    if (!host) {
      it.skip(`(skipped: ${(made as { unavailable: string }).unavailable})`, () => undefined);
      return;
    }

    it('reports 100% packet loss while it is silent and recovers when it answers again', async () => {
      expect(await sut.check(target(host.address, { packetCount: 2, timeout: 2 }))).toMatchObject({
        ok: true,
        observed: { packetLoss: 0 },
      });
      host.answer(false);
      const down = await sut.check(target(host.address, { packetCount: 2, timeout: 2 }));
      expect(down).toMatchObject({ ok: false, responseTime: null, error: '100% packet loss', observed: { packetLoss: 100 } });
      host.answer(true);
      expect(await sut.check(target(host.address, { packetCount: 2, timeout: 2 }))).toMatchObject({
        ok: true,
        observed: { packetLoss: 0 },
      });
    });

    it('names an ICMP "Host unreachable" answer, once the neighbour lookup has failed', async () => {
      host.unplug(true);
      try {
        const down = await sut.check(target(host.address, { packetCount: 4, timeout: 5 }));
        expect(down).toMatchObject({ ok: false, error: 'Host unreachable', observed: { packetLoss: 100 } });
      } finally {
        host.unplug(false);
      }
    }, 10_000);
  });
});
