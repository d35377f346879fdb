import { Logger } from '@nestjs/common';
import { Redis } from 'ioredis';
import { BucketStore, RateLimiter, RedisBucketStore, SharedRateLimiter } from './rate-limiter';

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

describe(SharedRateLimiter.name, () => {
  const options = { burst: 3, perMinute: 6 };

  describe.each([
    ['memory', () => null],
    ['a failing Redis (falls back to memory)', () => new RedisBucketStore(brokenRedis(), 'test', options)],
  ])('with %s', (_name, shared: () => BucketStore | null) => {
    let now: number;
    let sut: SharedRateLimiter;

    beforeAll(() => jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined));
    afterAll(() => jest.restoreAllMocks());
    beforeEach(() => {
      now = 1_000_000;
      sut = new SharedRateLimiter('test', options, shared(), () => now);
    });

    it('lets a burst through, then answers the seconds until the next token without taking it', async () => {
      for (let i = 0; i < 3; i += 1) expect(await sut.take('a')).toBe(0);
      expect(await sut.take('a')).toBe(10);
      expect(await sut.check('a')).toBe(10);
      expect(await sut.take('b')).toBe(0);
      now += 10_000;
      expect(await sut.check('a')).toBe(0);
      expect(await sut.take('a')).toBe(0);
      expect(await sut.take('a')).toBe(10);
    });

    it('checks a key without taking from it', async () => {
      for (let i = 0; i < 10; i += 1) expect(await sut.check('a')).toBe(0);
      for (let i = 0; i < 3; i += 1) await sut.take('a');
      expect(await sut.check('a')).toBeGreaterThan(0);
    });
  });

  describe('with Redis', () => {
    let redis: Redis;
    const prefix = `vigil-test-${process.pid}-${Date.now()}`;

    beforeAll(() => {
      redis = new Redis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
    });
    afterAll(async () => {
      const keys = await redis.keys(`${prefix}:*`);
      if (keys.length > 0) await redis.del(...keys);
      await redis.quit();
    });

    it('shares one allowance between instances with the same arithmetic as memory, and lets full buckets expire', async () => {
      let now = Date.now();
      const a = new SharedRateLimiter('test', options, new RedisBucketStore(redis, prefix, options), () => now);
      const b = new SharedRateLimiter('test', options, new RedisBucketStore(redis, prefix, options), () => now);
      expect(await a.take('10.0.0.1')).toBe(0);
      expect(await b.take('10.0.0.1')).toBe(0);
      expect(await a.take('10.0.0.1')).toBe(0);
      expect(await b.check('10.0.0.1')).toBe(10);
      expect(await b.take('10.0.0.1')).toBe(10);
      expect(await a.take('10.0.0.2')).toBe(0);
      now += 5_000;
      expect(await a.check('10.0.0.1')).toBe(5);
      now += 5_000;
      expect(await b.take('10.0.0.1')).toBe(0);
      // Empty again, refilled in 30 s: the key lives about that long (plus a second), not for ever.
      const ttl = await redis.pttl(`${prefix}:10.0.0.1`);
      expect(ttl).toBeGreaterThan(29_000);
      expect(ttl).toBeLessThanOrEqual(31_000);
    });
  });
});

/** A Redis whose every command fails at once, as one that went away would after its retries. */
function brokenRedis(): Redis {
  return { eval: () => Promise.reject(new Error('Connection is closed.')) } as unknown as Redis;
}
