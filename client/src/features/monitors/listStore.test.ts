import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse } from '../../test/render';
import { makeCheck, makeMonitor, monitorsPage } from '../../test/monitors';
import { pushHandlers } from '../../realtime/handlers';
import { createMonitorListStore, RESYNC_DELAY_MS } from './listStore';

describe('monitor list store', () => {
  let fetchMock: ReturnType<typeof vi.fn>;
  let sut: ReturnType<typeof createMonitorListStore>;
  const up = makeMonitor({ id: 1, status: 'up' });
  const down = makeMonitor({ id: 2, status: 'down' });

  beforeEach(() => {
    fetchMock = vi.fn(() => Promise.resolve(jsonResponse(200, monitorsPage([up, down]))));
    vi.stubGlobal('fetch', fetchMock);
    sut = createMonitorListStore(2);
  });
  afterEach(() => vi.useRealTimers());

  const requested = () => fetchMock.mock.calls.map(([url]) => String(url));
  // The realtime module writes a pushed row to the cache; counts and membership are this list's own.
  const handlers = pushHandlers();

  it('asks the server for one page with the filter and search', async () => {
    await sut.getState().load({ filter: 'paused', search: ' api ', page: 3 });
    expect(requested()).toEqual(['/api/monitors?page=3&pageSize=2&filter=paused&search=api']);
    expect(sut.getState()).toMatchObject({ status: 'ready', total: 2, counts: { up: 1, down: 1, total: 2 } });
  });

  it('does not send the "all" filter or an empty search', async () => {
    await sut.getState().load({ filter: 'all', search: '  ' });
    expect(requested()).toEqual(['/api/monitors?page=1&pageSize=2']);
  });

  it('keeps only the answer of the latest request when filters change quickly', async () => {
    let release: (response: Response) => void = () => undefined;
    fetchMock.mockImplementationOnce(() => new Promise<Response>((resolve) => (release = resolve)));
    fetchMock.mockImplementationOnce(() => Promise.resolve(jsonResponse(200, monitorsPage([down]))));
    const slow = sut.getState().load({ filter: 'all' });
    await sut.getState().load({ filter: 'paused' });
    release(jsonResponse(200, monitorsPage([up, down])));
    await slow;
    expect(sut.getState().rows.map((monitor) => monitor.id)).toEqual([2]);
    expect(sut.getState().query.filter).toBe('paused');
  });

  it('keeps a pushed check when a list read that left before it answers after it', async () => {
    const checked = { ...up, last_checked: '2025-03-01T09:39:00.000Z' };
    fetchMock.mockImplementationOnce(() => Promise.resolve(jsonResponse(200, monitorsPage([checked, down]))));
    await sut.getState().load();
    let release: (response: Response) => void = () => undefined;
    fetchMock.mockImplementationOnce(() => new Promise<Response>((resolve) => (release = resolve)));
    const late = sut.getState().load({}, { quiet: true });
    const check = makeCheck({ id: 9, status: 'down', checked_at: '2025-03-01T09:40:00.000Z' });
    handlers['monitor.checked']({
      monitorId: 1,
      check,
      status: 'pending',
      response_time: null,
      uptime: 90,
      last_checked: check.checked_at,
    });
    release(jsonResponse(200, monitorsPage([checked, down])));
    await late;
    expect(sut.getState().rows[0]).toMatchObject({ id: 1, status: 'pending', last_checked: check.checked_at });
  });

  it('keeps the rows on screen while the next page loads, and reports a failed page change', async () => {
    await sut.getState().load();
    let release: (response: Response) => void = () => undefined;
    fetchMock.mockImplementationOnce(() => new Promise<Response>((resolve) => (release = resolve)));
    const next = sut.getState().load({ page: 2 }, { keepRows: true });
    expect(sut.getState()).toMatchObject({ status: 'ready', fetching: true });
    expect(sut.getState().rows).toHaveLength(2);
    release(jsonResponse(500, { success: false, message: 'boom' }));
    await next;
    expect(sut.getState()).toMatchObject({ status: 'error', fetching: false });
  });

  it('keeps the rows when a background refresh fails', async () => {
    await sut.getState().load();
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await sut.getState().load({}, { quiet: true });
    expect(sut.getState()).toMatchObject({ status: 'ready', fetching: false });
    expect(sut.getState().rows).toHaveLength(2);
  });

  it('falls back to the last page when the current one was emptied elsewhere', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(200, monitorsPage([], { total: 2 })));
    await sut.getState().load({ page: 4 });
    expect(requested()).toEqual(['/api/monitors?page=4&pageSize=2', '/api/monitors?page=1&pageSize=2']);
    expect(sut.getState().query.page).toBe(1);
  });

  it('applies a pushed check to the row it concerns', async () => {
    await sut.getState().load();
    handlers['monitor.checked']({
      monitorId: 1,
      check: makeCheck({ id: 5, status: 'down', checked_at: '2025-03-01T10:10:00.000Z' }),
      status: 'pending',
      response_time: null,
      uptime: 98,
      last_checked: '2025-03-01T10:10:00.000Z',
    });
    expect(sut.getState().rows[0]).toMatchObject({ status: 'pending', uptime: 98, response_time: null });
    expect(sut.getState().rows[0].history.at(-1)).toEqual({ status: 'down', timestamp: '2025-03-01T10:10:00.000Z' });
  });

  it('moves counts and the row status on a transition, also for monitors on other pages', async () => {
    await sut.getState().load();
    const transition = { name: 'x', check: makeCheck(), changed_at: '2025-03-01T10:10:00.000Z' };
    for (const event of [
      { ...transition, monitorId: 1, previous: 'up' as const, status: 'pending' as const },
      { ...transition, monitorId: 99, previous: 'down' as const, status: 'up' as const },
    ]) {
      sut.getState().applyStatusChanged(event);
      handlers['monitor.status_changed'](event);
    }
    expect(sut.getState().rows[0].status).toBe('pending');
    expect(sut.getState().counts).toEqual({ up: 1, down: 0, pending: 1, degraded: 0, unreachable: 0, maintenance: 0, paused: 0, total: 2 });
  });

  it('counts a deletion once when the push arrives before the answer, then re-reads the page', async () => {
    vi.useFakeTimers();
    await sut.getState().load();
    fetchMock.mockImplementationOnce(async () => {
      sut.getState().applyChange({ action: 'deleted', monitor: up });
      return jsonResponse(200, { success: true, message: 'Monitor deleted' });
    });
    await sut.getState().remove(1);
    expect(sut.getState()).toMatchObject({ total: 1, counts: { up: 0, down: 1, total: 1 } });
    expect(sut.getState().rows.map((monitor) => monitor.id)).toEqual([2]);

    fetchMock.mockResolvedValueOnce(jsonResponse(200, monitorsPage([down, makeMonitor({ id: 3 })], { total: 3 })));
    await vi.advanceTimersByTimeAsync(RESYNC_DELAY_MS);
    expect(sut.getState().rows.map((monitor) => monitor.id)).toEqual([2, 3]);
  });

  it('adds a created monitor at the end of the last page when it fits the filter', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(200, monitorsPage([up])));
    await sut.getState().load();
    sut.getState().applyChange({ action: 'created', monitor: makeMonitor({ id: 7, status: 'pending' }) });
    expect(sut.getState().rows.map((monitor) => monitor.id)).toEqual([1, 7]);
    expect(sut.getState().counts).toMatchObject({ pending: 1, total: 2 });
  });

  it('does not list a created monitor the filter excludes, but counts it', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(200, monitorsPage([up])));
    await sut.getState().load({ filter: 'paused' });
    sut.getState().applyChange({ action: 'created', monitor: makeMonitor({ id: 7, status: 'pending' }) });
    expect(sut.getState().rows.map((monitor) => monitor.id)).toEqual([1]);
    expect(sut.getState().counts).toMatchObject({ pending: 1, total: 2 });
  });

  it('shows a paused monitor as paused at once and re-reads the page once for a burst of changes', async () => {
    vi.useFakeTimers();
    await sut.getState().load();
    for (const monitor of [
      { ...up, active: false },
      { ...down, name: 'renamed' },
    ]) {
      sut.getState().applyChange({ action: 'updated', monitor });
      handlers['monitors.changed']({ action: 'updated', monitor });
    }
    expect(sut.getState().rows[0].active).toBe(false);
    expect(sut.getState().counts).toMatchObject({ up: 0, paused: 1 });
    await vi.advanceTimersByTimeAsync(RESYNC_DELAY_MS);
    expect(requested()).toHaveLength(2);
  });

  it('ignores pushes until a page has loaded', () => {
    sut.getState().applyChange({ action: 'created', monitor: up });
    expect(sut.getState()).toMatchObject({ rows: [], total: 0 });
  });
});
