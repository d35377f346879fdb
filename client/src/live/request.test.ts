import { afterEach, describe, expect, it, vi } from 'vitest';
import { latestRequest, settleLater } from './request';

describe('latest request', () => {
  it('aborts the read in flight when the next starts, and only the latest is current', () => {
    const sut = latestRequest();
    const first = sut.start();
    const second = sut.start();
    expect(first.signal.aborted).toBe(true);
    expect(first.current).toBe(false);
    expect(second.current).toBe(true);
    second.end();
    expect(sut.busy).toBe(false);
  });

  it("aborts the read when the caller's signal aborts", () => {
    const sut = latestRequest();
    const caller = new AbortController();
    const ticket = sut.start(caller.signal);
    caller.abort();
    expect(ticket.signal.aborted).toBe(true);
    expect(ticket.current).toBe(false);
  });
});

describe('settle later', () => {
  afterEach(() => vi.useRealTimers());

  it('reads once for a burst, and not at all when a read came first', () => {
    vi.useFakeTimers();
    const reread = vi.fn();
    const sut = settleLater(300, reread);
    sut.schedule();
    sut.schedule();
    vi.advanceTimersByTime(300);
    expect(reread).toHaveBeenCalledTimes(1);
    sut.schedule();
    sut.cancel();
    vi.advanceTimersByTime(300);
    expect(reread).toHaveBeenCalledTimes(1);
  });
});
