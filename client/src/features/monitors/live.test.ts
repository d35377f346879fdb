import type { MonitorCheckedEvent, MonitorStatus, MonitorStatusChangedEvent } from '@vigil/proto';
import { describe, expect, it } from 'vitest';
import { makeCheck, makeMonitor } from '../../test/monitors';
import { countsAfterChange, countsAfterTransition, EMPTY_COUNTS, matchesListQuery, withCheck, withStatus } from './live';

const checked = (overrides: Partial<MonitorCheckedEvent> = {}): MonitorCheckedEvent => ({
  monitorId: 1,
  check: makeCheck({ id: 9, status: 'down', status_code: 500, response_time: 80, checked_at: '2025-03-01T10:05:00.000Z' }),
  status: 'pending',
  response_time: 80,
  uptime: 97.25,
  last_checked: '2025-03-01T10:05:00.000Z',
  ...overrides,
});

const transition = (previous: MonitorStatus, status: MonitorStatus): MonitorStatusChangedEvent => ({
  monitorId: 1,
  name: 'Monitor 1',
  previous,
  status,
  check: makeCheck(),
  changed_at: '2025-03-01T10:05:00.000Z',
});

const point = (minute: number) => ({ status: 'up' as const, timestamp: `2025-03-01T09:${String(minute).padStart(2, '0')}:00.000Z` });

describe('live monitor updates', () => {
  it('applies a pushed check to status, response time, uptime, last check and history', () => {
    const monitor = makeMonitor({ history: [point(1)] });
    const next = withCheck(monitor, checked(), { history: 24, checks: 0 });
    expect(next).toMatchObject({
      status: 'pending',
      response_time: 80,
      uptime: 97.25,
      last_checked: '2025-03-01T10:05:00.000Z',
      checks: [],
    });
    expect(next.history).toEqual([point(1), { status: 'down', timestamp: '2025-03-01T10:05:00.000Z' }]);
  });

  it('keeps only the newest points once the history is full', () => {
    const monitor = makeMonitor({ history: Array.from({ length: 24 }, (_, minute) => point(minute)) });
    const next = withCheck(monitor, checked(), { history: 24, checks: 0 });
    expect(next.history).toHaveLength(24);
    expect(next.history[0]).toEqual(point(1));
    expect(next.history[23].timestamp).toBe('2025-03-01T10:05:00.000Z');
  });

  it('puts the check first in the kept checks, newest first, up to the limit', () => {
    const monitor = makeMonitor({ checks: [makeCheck({ id: 2 }), makeCheck({ id: 1 })] });
    expect(withCheck(monitor, checked(), { history: 40, checks: 2 }).checks.map((check) => check.id)).toEqual([9, 2]);
  });

  it('ignores a check already shown, e.g. from the "check now" answer', () => {
    const monitor = makeMonitor({ checks: [makeCheck({ id: 9 })] });
    expect(withCheck(monitor, checked(), { history: 40, checks: 50 })).toBe(monitor);
  });

  it('ignores a check older than the last one shown', () => {
    const monitor = makeMonitor({ last_checked: '2025-03-01T11:00:00.000Z' });
    expect(withCheck(monitor, checked(), { history: 40, checks: 50 })).toBe(monitor);
  });

  it('does not add a history point twice for the same time', () => {
    const monitor = makeMonitor({ history: [{ status: 'down', timestamp: '2025-03-01T10:05:00.000Z' }], last_checked: null });
    expect(withCheck(monitor, checked(), { history: 40, checks: 0 }).history).toHaveLength(1);
  });

  it('changes only the status on a transition', () => {
    const monitor = makeMonitor({ status: 'up' });
    expect(withStatus(monitor, transition('up', 'pending'))).toEqual({ ...monitor, status: 'pending' });
    expect(withStatus(monitor, transition('down', 'up'))).toBe(monitor);
  });

  it.each([
    ['up', 'pending', { up: 4, pending: 2, down: 1 }],
    ['pending', 'down', { up: 5, pending: 0, down: 2 }],
    ['down', 'up', { up: 6, pending: 1, down: 0 }],
  ] as const)('moves one monitor from %s to %s in the counts', (previous, status, expected) => {
    const counts = { ...EMPTY_COUNTS, up: 5, pending: 1, down: 1, total: 7 };
    expect(countsAfterTransition(counts, transition(previous, status))).toEqual({ ...counts, ...expected });
  });

  it('leaves the counts alone for a transition of a monitor known to be paused', () => {
    const counts = { ...EMPTY_COUNTS, up: 1, paused: 1, total: 2 };
    expect(countsAfterTransition(counts, transition('up', 'pending'), makeMonitor({ active: false }))).toBe(counts);
  });

  it('moves a monitor between the new status counts when its dependency goes down and it turns unreachable', () => {
    const counts = { ...EMPTY_COUNTS, up: 1, degraded: 1, total: 2 };
    expect(countsAfterTransition(counts, transition('degraded', 'unreachable'))).toEqual({
      ...EMPTY_COUNTS,
      up: 1,
      unreachable: 1,
      total: 2,
    });
  });

  it('never counts below zero', () => {
    expect(countsAfterTransition(EMPTY_COUNTS, transition('up', 'down'))).toEqual({ ...EMPTY_COUNTS, down: 1 });
  });

  it.each([
    [
      'created',
      makeMonitor({ status: 'pending' }),
      undefined,
      { up: 2, down: 0, pending: 2, degraded: 0, unreachable: 0, maintenance: 0, paused: 0, total: 4 },
    ],
    [
      'created',
      makeMonitor({ active: false }),
      undefined,
      { up: 2, down: 0, pending: 1, degraded: 0, unreachable: 0, maintenance: 0, paused: 1, total: 4 },
    ],
    [
      'deleted',
      makeMonitor({ status: 'up' }),
      undefined,
      { up: 1, down: 0, pending: 1, degraded: 0, unreachable: 0, maintenance: 0, paused: 0, total: 2 },
    ],
    [
      'updated',
      makeMonitor({ active: false }),
      makeMonitor({ status: 'up' }),
      { up: 1, down: 0, pending: 1, degraded: 0, unreachable: 0, maintenance: 0, paused: 1, total: 3 },
    ],
    [
      'updated',
      makeMonitor({ status: 'down' }),
      makeMonitor({ status: 'down' }),
      { up: 2, down: 0, pending: 1, degraded: 0, unreachable: 0, maintenance: 0, paused: 0, total: 3 },
    ],
  ] as const)('counts a %s monitor', (action, monitor, previous, expected) => {
    const counts = { up: 2, down: 0, pending: 1, degraded: 0, unreachable: 0, maintenance: 0, paused: 0, total: 3 };
    expect(countsAfterChange(counts, { action, monitor }, previous)).toEqual(expected);
  });

  it('asks for a re-read when an edited monitor was not on screen', () => {
    expect(countsAfterChange(EMPTY_COUNTS, { action: 'updated', monitor: makeMonitor() })).toBeNull();
  });

  it.each([
    ['all', '', true],
    ['active', '', true],
    ['paused', '', false],
    ['all', 'EXAMPLE.com', true],
    ['all', 'monitor 1', true],
    ['all', 'nothing', false],
  ] as const)('matches an active monitor against filter %s and search %j: %s', (filter, search, expected) => {
    expect(matchesListQuery(makeMonitor(), { filter, search })).toBe(expected);
  });

  it.each([
    ['all', true],
    ['http', true],
    ['tcp', false],
  ] as const)('matches an HTTP monitor against the type filter %s: %s', (type, expected) => {
    expect(matchesListQuery(makeMonitor(), { filter: 'all', type, search: '' })).toBe(expected);
  });

  it('finds a TCP monitor by its type and the target its url reads', () => {
    const tcp = makeMonitor({ type: 'tcp', url: 'tcp://db.internal:5432', hostname: 'db.internal', port: 5432 });
    expect(matchesListQuery(tcp, { filter: 'all', type: 'tcp', search: 'db.internal' })).toBe(true);
    expect(matchesListQuery(tcp, { filter: 'all', type: 'dns', search: '' })).toBe(false);
  });

  it('matches a paused monitor only under all and paused', () => {
    const paused = makeMonitor({ active: false });
    expect(['all', 'active', 'paused'].map((filter) => matchesListQuery(paused, { filter: filter as 'all', search: '' }))).toEqual([
      true,
      false,
      true,
    ]);
  });
});
