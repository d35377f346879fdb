import { POLL_INTERVAL_MS } from '@vigil/proto';
import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useRealtimeStore } from './store';
import { usePollingFallback } from './usePollingFallback';

describe('usePollingFallback', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('polls every POLL_INTERVAL_MS while the socket is down and stops once it is up', () => {
    useRealtimeStore.setState({ status: 'offline' });
    const refresh = vi.fn();
    renderHook(() => usePollingFallback(refresh));

    act(() => vi.advanceTimersByTime(POLL_INTERVAL_MS * 2));
    expect(refresh).toHaveBeenCalledTimes(2);

    act(() => useRealtimeStore.setState({ status: 'connected' }));
    // One catch-up refresh on reconnect, then nothing more while connected.
    expect(refresh).toHaveBeenCalledTimes(3);
    act(() => vi.advanceTimersByTime(POLL_INTERVAL_MS * 3));
    expect(refresh).toHaveBeenCalledTimes(3);
  });

  it('does not poll while connected', () => {
    useRealtimeStore.setState({ status: 'connected' });
    const refresh = vi.fn();
    renderHook(() => usePollingFallback(refresh));
    act(() => vi.advanceTimersByTime(POLL_INTERVAL_MS * 2));
    expect(refresh).not.toHaveBeenCalled();
  });

  it('does not refresh twice on the first connect after mounting', () => {
    useRealtimeStore.setState({ status: 'connecting' });
    const refresh = vi.fn();
    renderHook(() => usePollingFallback(refresh));
    act(() => useRealtimeStore.setState({ status: 'connected' }));
    expect(refresh).not.toHaveBeenCalled();
  });

  it('aborts the request of the previous run when the next one starts, and the last one on unmount', () => {
    useRealtimeStore.setState({ status: 'offline' });
    const signals: AbortSignal[] = [];
    const { unmount } = renderHook(() => usePollingFallback((signal) => signals.push(signal)));
    act(() => vi.advanceTimersByTime(POLL_INTERVAL_MS));
    expect(signals.map((signal) => signal.aborted)).toEqual([false]);
    act(() => vi.advanceTimersByTime(POLL_INTERVAL_MS));
    expect(signals.map((signal) => signal.aborted)).toEqual([true, false]);
    unmount();
    expect(signals.map((signal) => signal.aborted)).toEqual([true, true]);
  });
});
