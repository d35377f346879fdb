import { beforeEach, describe, expect, it, vi } from 'vitest';
import { makePublicMonitor, makeStatusData } from '../../test/status';
import { jsonResponse } from '../../test/render';
import { CHANGED_DELAY_MS, useStatusPageStore } from './pageStore';

describe('status page store', () => {
  let fetchMock: ReturnType<typeof vi.fn>;

  beforeEach(() => {
    useStatusPageStore.setState({ data: null, status: 'idle', error: null });
    fetchMock = vi.fn(() => Promise.resolve(jsonResponse(200, { success: true, data: makeStatusData() })));
    vi.stubGlobal('fetch', fetchMock);
  });

  it('replaces the pushed item and takes the overall status and update time of the push', async () => {
    const sut = useStatusPageStore.getState();
    await sut.load();
    const down = makePublicMonitor({ id: 2, status: 'down', uptime: 50 });
    sut.applyItem({ monitor: down, overall: 'outage', updated_at: '2025-03-01T10:05:00.000Z' });

    const { data } = useStatusPageStore.getState();
    expect(data?.monitors.map((row) => row.status)).toEqual(['up', 'down']);
    expect(data?.monitors[1]).toBe(down);
    expect(data).toMatchObject({ overall: 'outage', updated_at: '2025-03-01T10:05:00.000Z' });
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('reads the page again on status.changed, once for a burst, keeping the current page on screen meanwhile', async () => {
    vi.useFakeTimers();
    const sut = useStatusPageStore.getState();
    await sut.load();
    fetchMock.mockResolvedValueOnce(jsonResponse(200, { success: true, data: makeStatusData({ title: 'Renamed' }) }));
    for (let index = 0; index < 5; index += 1) sut.applyChanged();
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(CHANGED_DELAY_MS);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(useStatusPageStore.getState().data?.title).toBe('Renamed');
    expect(useStatusPageStore.getState().status).toBe('ready');
    vi.useRealTimers();
  });

  it('reads again when a pushed item is not on the page it holds', async () => {
    const sut = useStatusPageStore.getState();
    await sut.load();
    sut.applyItem({ monitor: makePublicMonitor({ id: 9 }), overall: 'operational', updated_at: '2025-03-01T10:05:00.000Z' });
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('aborts the read still in flight when a new one starts, and keeps only the newest answer', async () => {
    const signals: AbortSignal[] = [];
    fetchMock.mockImplementation((_url: string, init: RequestInit) => {
      signals.push(init.signal as AbortSignal);
      return new Promise((resolve, reject) => {
        init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        if (signals.length === 2) resolve(jsonResponse(200, { success: true, data: makeStatusData({ title: 'second' }) }));
      });
    });
    const sut = useStatusPageStore.getState();
    const first = sut.load();
    const second = sut.load({ quiet: true });
    await Promise.all([first, second]);

    expect(signals[0].aborted).toBe(true);
    expect(useStatusPageStore.getState()).toMatchObject({ status: 'ready', error: null });
    expect(useStatusPageStore.getState().data?.title).toBe('second');
  });

  it("aborts the read when the caller's signal aborts", async () => {
    let seen: AbortSignal | undefined;
    fetchMock.mockImplementation((_url: string, init: RequestInit) => {
      seen = init.signal as AbortSignal;
      return new Promise((_resolve, reject) =>
        init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
      );
    });
    const caller = new AbortController();
    const pending = useStatusPageStore.getState().load({ signal: caller.signal });
    caller.abort();
    await pending;
    expect(seen?.aborted).toBe(true);
    expect(useStatusPageStore.getState().status).toBe('loading');
  });

  it('keeps a newer push that landed while the read was on its way', async () => {
    const sut = useStatusPageStore.getState();
    await sut.load();
    let answer: (response: Response) => void = () => undefined;
    fetchMock.mockImplementation(() => new Promise<Response>((resolve) => (answer = resolve)));
    const pending = sut.load({ quiet: true });
    sut.applyItem({ monitor: makePublicMonitor({ id: 1, status: 'down' }), overall: 'outage', updated_at: '2025-03-01T10:10:00.000Z' });
    answer(jsonResponse(200, { success: true, data: makeStatusData({ updated_at: '2025-03-01T10:09:00.000Z' }) }));
    await pending;
    expect(useStatusPageStore.getState().data?.monitors[0].status).toBe('down');
    expect(useStatusPageStore.getState().data?.overall).toBe('outage');
  });

  it('keeps an item and banner pushed before the first read landed, when that read is older', async () => {
    let answer: (response: Response) => void = () => undefined;
    fetchMock.mockImplementation(() => new Promise<Response>((resolve) => (answer = resolve)));
    const sut = useStatusPageStore.getState();
    const pending = sut.load();
    sut.applyItem({ monitor: makePublicMonitor({ id: 1, status: 'down' }), overall: 'outage', updated_at: '2025-03-01T10:10:00.000Z' });
    answer(jsonResponse(200, { success: true, data: makeStatusData({ updated_at: '2025-03-01T10:09:00.000Z' }) }));
    await pending;
    expect(useStatusPageStore.getState().data).toMatchObject({ overall: 'outage', updated_at: '2025-03-01T10:10:00.000Z' });
    expect(useStatusPageStore.getState().data?.monitors[0].status).toBe('down');
  });

  it('shows the error of a first read, but keeps the page on a failed quiet one', async () => {
    fetchMock.mockResolvedValueOnce(jsonResponse(500, { success: false, message: 'boom' }));
    const sut = useStatusPageStore.getState();
    await sut.load();
    expect(useStatusPageStore.getState().status).toBe('error');
    await sut.load();
    fetchMock.mockResolvedValueOnce(jsonResponse(500, { success: false, message: 'boom' }));
    await sut.load({ quiet: true });
    expect(useStatusPageStore.getState().status).toBe('ready');
  });
});
