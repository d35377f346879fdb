import { beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../../test/render';
import { makeCheck, makeMonitor } from '../../test/monitors';
import { pushHandlers } from '../../realtime/handlers';
import { CHECKS_PAGE_SIZE, useMonitorDetailStore } from './detailStore';

const point = (minute: number) => ({ status: 'up' as const, timestamp: `2025-03-01T09:${String(minute).padStart(2, '0')}:00.000Z` });

describe('monitor detail store', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  const monitor = makeMonitor({
    id: 4,
    history: Array.from({ length: 40 }, (_, minute) => point(minute)),
    checks: [makeCheck({ id: 1 })],
    last_checked: '2025-03-01T09:39:00.000Z',
  });

  beforeEach(() => {
    useMonitorDetailStore.setState({ id: null, monitor: null, status: 'idle', error: null, removed: false });
    fetchMock = vi.fn((url: string) => {
      if (url === '/api/monitors/4') return Promise.resolve(jsonResponse(200, { success: true, monitor }));
      if (url.startsWith('/api/monitors/4/checks')) {
        return Promise.resolve(
          jsonResponse(200, { success: true, checks: [makeCheck({ id: 1 })], total: 1, page: 1, pageSize: CHECKS_PAGE_SIZE }),
        );
      }
      return Promise.resolve(jsonResponse(404, { success: false, message: 'Monitor does not exist', code: 'monitors.notFound' }));
    });
    vi.stubGlobal('fetch', fetchMock);
  });

  const sut = () => useMonitorDetailStore.getState();
  // Pushes as the realtime module applies them: to the cache the page reads, and to the page's own state.
  const handlers = pushHandlers();

  it('loads the monitor and marks a 404 as missing', async () => {
    await sut().load(4);
    expect(sut()).toMatchObject({ status: 'ready', monitor: { id: 4 } });
    await sut().load(5);
    expect(sut()).toMatchObject({ status: 'missing', monitor: null });
  });

  it('appends a pushed check to the 40-point history, the checks and the first history page', async () => {
    await sut().load(4);
    await sut().loadChecks(1);
    const check = makeCheck({ id: 2, status: 'down', checked_at: '2025-03-01T09:40:00.000Z' });
    handlers['monitor.checked']({
      monitorId: 4,
      check,
      status: 'pending',
      response_time: null,
      uptime: 90,
      last_checked: check.checked_at,
    });

    const state = sut();
    expect(state.monitor?.status).toBe('pending');
    expect(state.monitor?.history).toHaveLength(40);
    expect(state.monitor?.history.at(-1)).toEqual({ status: 'down', timestamp: check.checked_at });
    expect(state.monitor?.checks.map((row) => row.id)).toEqual([2, 1]);
    expect(state.checks).toMatchObject({ total: 2 });
    expect(state.checks.checks.map((row) => row.id)).toEqual([2, 1]);
  });

  it('keeps a pushed check when a read that left before it answers after it', async () => {
    await sut().load(4);
    let answer: (response: Response) => void = () => undefined;
    fetchMock.mockImplementationOnce(() => new Promise<Response>((resolve) => (answer = resolve)));
    const late = sut().load(4, { quiet: true });
    const check = makeCheck({ id: 2, status: 'down', checked_at: '2025-03-01T09:40:00.000Z' });
    handlers['monitor.checked']({
      monitorId: 4,
      check,
      status: 'pending',
      response_time: null,
      uptime: 90,
      last_checked: check.checked_at,
    });
    answer(jsonResponse(200, { success: true, monitor: { ...monitor, name: 'Renamed' } }));
    await late;

    expect(sut().monitor).toMatchObject({ name: 'Renamed', status: 'pending', last_checked: check.checked_at });
    expect(sut().monitor?.checks.map((row) => row.id)).toEqual([2, 1]);
  });

  it('ignores pushes about other monitors', async () => {
    await sut().load(4);
    const before = sut().monitor;
    handlers['monitor.status_changed']({ monitorId: 9, name: 'other', previous: 'up', status: 'down', check: makeCheck(), changed_at: '' });
    handlers['monitors.changed']({ action: 'deleted', monitor: makeMonitor({ id: 9 }) });
    expect(sut().monitor).toBe(before);
    expect(sut().removed).toBe(false);
  });

  it('counts a "check now" result once when its push follows', async () => {
    await sut().load(4);
    await sut().loadChecks(1);
    const check = makeCheck({ id: 3, checked_at: '2025-03-01T09:41:00.000Z' });
    const after = { ...monitor, last_checked: check.checked_at, checks: [check, ...monitor.checks] };
    sut().applyCheckResult({ check, monitor: after });
    handlers['monitor.checked']({ monitorId: 4, check, status: 'up', response_time: 100, uptime: 99, last_checked: check.checked_at });
    expect(sut().monitor?.checks.map((row) => row.id)).toEqual([3, 1]);
    expect(sut().checks.total).toBe(2);
  });

  it('keeps the long history when a pause answer or an edit push arrives', async () => {
    await sut().load(4);
    sut().applyResponse({ ...monitor, active: false, history: [], checks: [] });
    expect(sut().monitor).toMatchObject({ active: false });
    expect(sut().monitor?.history).toHaveLength(40);

    handlers['monitors.changed']({
      action: 'updated',
      monitor: { ...monitor, name: 'Renamed', active: true, history: [point(1)], checks: [] },
    });
    expect(sut().monitor).toMatchObject({ name: 'Renamed', active: true });
    expect(sut().monitor?.history).toHaveLength(40);
    expect(sut().monitor?.checks).toHaveLength(1);
  });

  it('flags a monitor deleted elsewhere', async () => {
    await sut().load(4);
    handlers['monitors.changed']({ action: 'deleted', monitor });
    expect(sut()).toMatchObject({ removed: true, monitor: { id: 4 } });
  });
});
