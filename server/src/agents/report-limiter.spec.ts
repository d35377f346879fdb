import type { AgentDto } from '@vigil/proto';
import { Limiter } from '../common/limits/limiter';
import { BACKLOG_BURST, LIVE_BURST, PROBE_BURST, PROBE_PER_MINUTE, ReportLimiter } from './report-limiter';

const T0 = 1_000_000;

/** Sends `count` messages at `at`, returns how many passed. */
function send(sut: ReportLimiter, count: number, { agent = 1, kind = 'live' as const, cost = 1, interval = 60, at = T0 } = {}): number {
  let passed = 0;
  for (let i = 0; i < count; i += 1) if (sut.take(agent, kind, cost, interval, at).ok) passed += 1;
  return passed;
}

describe('per-agent report limiter', () => {
  it('lets a burst through, then refuses with the time until the next message would pass', () => {
    const sut = new ReportLimiter(new Limiter());
    expect(send(sut, 1000)).toBe(LIVE_BURST);
    expect(sut.refused).toBe(1000 - LIVE_BURST);
    // Two messages per 60 s interval: the next one in 30 s.
    expect(sut.take(1, 'live', 1, 60, T0)).toEqual({ ok: false, retryAfterMs: 30_000 });
  });

  it.each([5, 60, 3600])('sustains two messages per interval of %i s and no more', (interval) => {
    const sut = new ReportLimiter(new Limiter());
    send(sut, LIVE_BURST, { interval });
    let passed = 0;
    // Ten intervals of a flood of one message a second.
    for (let s = 1; s <= interval * 10; s += 1) passed += send(sut, 1, { interval, at: T0 + s * 1000 });
    // Twenty refills, give or take the last one to floating-point rounding.
    expect(passed).toBeGreaterThanOrEqual(19);
    expect(passed).toBeLessThanOrEqual(20);
  });

  it('never refuses an agent that keeps its rhythm, even with jitter', () => {
    const sut = new ReportLimiter(new Limiter());
    send(sut, 1); // hello
    let at = T0;
    for (let i = 0; i < 10_000; i += 1) {
      at += 5_000 + (i % 2 ? -2_000 : 2_000);
      expect(sut.take(1, 'live', 1, 5, at)).toEqual({ ok: true });
    }
  });

  it('takes a full agent buffer of backlog at once, apart from the live budget', () => {
    const sut = new ReportLimiter(new Limiter());
    expect(send(sut, BACKLOG_BURST / 100 + 5, { kind: 'backlog', cost: 100 } as never)).toBe(Math.floor(BACKLOG_BURST / 100));
    expect(send(sut, LIVE_BURST)).toBe(LIVE_BURST);
    expect(sut.take(1, 'backlog', 100, 60, T0)).toEqual({ ok: false, retryAfterMs: expect.any(Number) });
  });

  it('takes a full buffer of check results at once, apart from reports, then the most a real set can owe', () => {
    const sut = new ReportLimiter(new Limiter());
    const results = (cost: number, at = T0) => sut.take(1, 'probe', cost, 3600, at).ok;
    for (let sent = 0; sent < PROBE_BURST; sent += 500) expect(results(500)).toBe(true);
    expect(results(1)).toBe(false);
    expect(send(sut, LIVE_BURST)).toBe(LIVE_BURST);
    // A minute later, whatever the agent's report interval: a minute's worth of results, and no more.
    expect(results(PROBE_PER_MINUTE, T0 + 60_000)).toBe(true);
    expect(results(1, T0 + 60_000)).toBe(false);
  });

  it('keeps agents apart', () => {
    const sut = new ReportLimiter(new Limiter());
    send(sut, 1000, { agent: 1 });
    expect(send(sut, LIVE_BURST, { agent: 2 })).toBe(LIVE_BURST);
  });

  it('keeps at most its bound of agents, forgetting the least recently heard first, and forgets deleted agents', () => {
    const sut = new ReportLimiter(new Limiter());
    sut.maxTracked = 100;
    for (let agent = 1; agent <= 1000; agent += 1) send(sut, 1, { agent });
    expect(sut.tracked).toBe(100);
    // Agent 1000 is still known (its bucket short of one), agent 1 was forgotten (full again).
    expect(send(sut, LIVE_BURST, { agent: 1000 })).toBe(LIVE_BURST - 1);
    expect(send(sut, LIVE_BURST, { agent: 1 })).toBe(LIVE_BURST);
    sut.forget({ agent: { id: 1000 } as AgentDto });
    expect(send(sut, LIVE_BURST, { agent: 1000 })).toBe(LIVE_BURST);
  });
});
