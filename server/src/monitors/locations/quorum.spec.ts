import type { LocationId, QuorumRule } from '@vigil/proto';
import { locationStatus, quorumVerdict, type LocationResult } from './quorum';

const NOW = new Date('2026-11-28T12:00:00Z');
const ago = (seconds: number) => new Date(NOW.getTime() - seconds * 1000);
const up = (seconds = 5): LocationResult => ({ status: 'up', checkedAt: ago(seconds), responseTime: 100, error: null });
const down = (error = 'Connection refused'): LocationResult => ({ status: 'down', checkedAt: ago(5), responseTime: null, error });

function verdict(
  results: Partial<Record<LocationId, LocationResult>>,
  quorum: QuorumRule,
  options: { quorumMin?: number; online?: number[]; locations?: LocationId[] } = {},
) {
  const locations = options.locations ?? (Object.keys(results) as LocationId[]);
  return quorumVerdict({
    locations,
    results: new Map(Object.entries(results) as Array<[LocationId, LocationResult]>),
    online: new Set(options.online ?? [1, 2, 3, 4]),
    names: new Map([
      ['server', 'server'],
      ['agent:1', 'web-1'],
      ['agent:2', 'web-2'],
    ]),
    quorum,
    quorumMin: options.quorumMin ?? null,
    interval: 60,
    timeout: 10,
    now: NOW,
  });
}

describe('quorum verdict', () => {
  it.each<[string, QuorumRule, number, Parameters<typeof verdict>[2], string]>([
    ['one of three fails, any', 'any', 1, {}, 'down'],
    ['one of three fails, majority', 'majority', 1, {}, 'degraded'],
    ['two of three fail, majority', 'majority', 2, {}, 'down'],
    ['one of three fails, at least 2', 'atLeast', 1, { quorumMin: 2 }, 'degraded'],
    ['two of three fail, at least 2', 'atLeast', 2, { quorumMin: 2 }, 'down'],
    ['none fails, any', 'any', 0, {}, 'up'],
  ])('%s', (_name, quorum, failing, options, outcome) => {
    const all: LocationId[] = ['server', 'agent:1', 'agent:2'];
    const results = Object.fromEntries(all.map((location, i) => [location, i < failing ? down() : up()]));
    expect(verdict(results, quorum, options).outcome).toBe(outcome);
  });

  it('does not call a tie a majority: one of two failing is not down, and the alert text names it', () => {
    const result = verdict({ server: up(), 'agent:1': down('Timeout after 10 s') }, 'majority');
    expect(result.outcome).toBe('degraded');
    expect(result.error).toBe('1 of 2 locations fail: web-1: Timeout after 10 s');
    expect(verdict({ server: down(), 'agent:1': down(), 'agent:2': up(), 'agent:3': up() }, 'majority').outcome).toBe('degraded');
  });

  it('names every failing location and what each saw', () => {
    const result = verdict({ server: down('HTTP 503'), 'agent:1': down('Connection refused'), 'agent:2': up() }, 'any');
    expect(result).toMatchObject({ outcome: 'down', failing: ['server', 'agent:1'], known: 3, responseTime: 100 });
    expect(result.error).toBe('2 of 3 locations fail: server: HTTP 503; web-1: Connection refused');
  });

  it("counts an offline agent's location as unknown, not down: the rest decide", () => {
    const result = verdict({ server: up(), 'agent:1': down() }, 'any', { online: [2] });
    expect(result).toMatchObject({ outcome: 'up', known: 1, failing: [] });
  });

  it('is unreachable when every location is unknown (agents offline, stale or never heard from)', () => {
    const stale = { ...up(), checkedAt: ago(2 * 60 + 10 + 1) };
    const result = verdict({ 'agent:1': down(), 'agent:2': stale }, 'any', { online: [2], locations: ['agent:1', 'agent:2', 'agent:3'] });
    expect(result.outcome).toBe('unreachable');
    expect(result.known).toBe(0);
  });

  it('keeps a result fresh for two intervals plus the timeout', () => {
    const online = new Set([1]);
    expect(locationStatus('agent:1', up(2 * 60 + 10), online, 60, 10, NOW)).toBe('up');
    expect(locationStatus('agent:1', up(2 * 60 + 11), online, 60, 10, NOW)).toBe('unknown');
    expect(locationStatus('agent:1', undefined, online, 60, 10, NOW)).toBe('pending');
    expect(locationStatus('agent:9', up(), online, 60, 10, NOW)).toBe('unknown');
    expect(locationStatus('server', undefined, online, 60, 10, NOW)).toBe('pending');
  });
});
