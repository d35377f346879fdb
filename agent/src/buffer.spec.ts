import { backoffDelay, ReportBuffer } from './buffer';

describe('report buffer', () => {
  it('keeps the newest items when full, counting what it dropped', () => {
    const buffer = new ReportBuffer<number>(3);
    for (let i = 1; i <= 5; i += 1) buffer.push(i);
    expect(buffer.size).toBe(3);
    expect(buffer.dropped).toBe(2);
    expect(buffer.peek(10)).toEqual([3, 4, 5]);
  });

  it('hands out chunks, oldest first, and forgets them only once delivered', () => {
    const buffer = new ReportBuffer<number>(10);
    [1, 2, 3, 4, 5].forEach((n) => buffer.push(n));
    expect(buffer.peek(2)).toEqual([1, 2]);
    expect(buffer.peek(2)).toEqual([1, 2]);
    buffer.commit(2);
    expect(buffer.peek(2)).toEqual([3, 4]);
    buffer.commit(2);
    buffer.commit(2);
    expect(buffer.size).toBe(0);
  });
});

describe('reconnect backoff', () => {
  it('grows exponentially to the cap, with jitter inside the bounds', () => {
    expect(backoffDelay(0, 1_000, 60_000, () => 0)).toBe(500);
    expect(backoffDelay(0, 1_000, 60_000, () => 1)).toBe(1_000);
    expect(backoffDelay(3, 1_000, 60_000, () => 1)).toBe(8_000);
    expect(backoffDelay(10, 1_000, 60_000, () => 1)).toBe(60_000);
    expect(backoffDelay(100, 1_000, 60_000, () => 1)).toBe(60_000);
    for (let attempt = 0; attempt < 12; attempt += 1) {
      const delay = backoffDelay(attempt);
      expect(delay).toBeGreaterThanOrEqual(500);
      expect(delay).toBeLessThanOrEqual(Math.min(60_000, 1_000 * 2 ** attempt));
    }
  });
});
