import { RateLimiter } from './rate-limiter';

const refused = (run: () => void): number | null => {
  try {
    run();
    return null;
  } catch (error) {
    return (error as { getStatus(): number; retryAfterSeconds: number }).retryAfterSeconds;
  }
};

describe(RateLimiter.name, () => {
  it('lets a burst through, then refuses with the wait until the next token', () => {
    const sut = new RateLimiter({ burst: 3, perMinute: 6 });
    for (let i = 0; i < 3; i += 1) expect(refused(() => sut.take(['a'], 0))).toBeNull();
    expect(refused(() => sut.take(['a'], 0))).toBe(10);
    expect(refused(() => sut.take(['b'], 0))).toBeNull();
    expect(refused(() => sut.take(['a'], 10_000))).toBeNull();
  });

  it('takes nothing from any key when one of them is empty', () => {
    const sut = new RateLimiter({ burst: 1, perMinute: 1 });
    sut.take(['token'], 0);
    expect(refused(() => sut.take(['address', 'token'], 0))).not.toBeNull();
    expect(refused(() => sut.take(['address'], 0))).toBeNull();
  });

  it('keeps at most maxKeys buckets, forgetting the least recently used', () => {
    const sut = new RateLimiter({ burst: 1, perMinute: 1, maxKeys: 2 });
    sut.take(['a'], 0);
    sut.take(['b'], 0);
    sut.take(['c'], 0);
    expect(sut.tracked).toBe(2);
    expect(refused(() => sut.take(['a'], 0))).toBeNull();
  });

  it('checks a key without taking from it', () => {
    const sut = new RateLimiter({ burst: 1, perMinute: 60 });
    sut.check(['a'], 0);
    sut.check(['a'], 0);
    sut.take(['a'], 0);
    expect(() => sut.check(['a'], 0)).toThrow(expect.objectContaining({ status: 429 }));
    expect(() => sut.check(['a'], 1_000)).not.toThrow();
  });
});
