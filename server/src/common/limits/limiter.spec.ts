import { Logger } from '@nestjs/common';
import { Redis } from 'ioredis';
import { bucketPolicy, type LimitStore, penaltyPolicy } from './limit-store';
import { Limiter } from './limiter';
import { MemoryLimitStore } from './memory-limit.store';
import { RedisLimitStore } from './redis-limit.store';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const BUCKET = bucketPolicy('bucket', { burst: 3, perMinute: 6 });
const PENALTY = penaltyPolicy('penalty', { free: 2, baseMs: 1_000, maxMs: 5_000, forgetMs: 60_000 });

/** The 429's `Retry-After` seconds, or null when the call passed. */
const refusal = (promise: Promise<void>): Promise<number | null> =>
  promise.then(
    () => null,
    (error: { getStatus(): number; retryAfterSeconds: number }) => {
      expect(error.getStatus()).toBe(429);
      return error.retryAfterSeconds;
    },
  );

/** A key space of its own on the local Redis per test, deleted afterwards. */
const redisKeys = () => {
  const redis = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
  let n = 0;
  return {
    redis,
    prefix: () => `vigil-test-limits-${process.pid}-${Date.now()}-${(n += 1)}`,
    async cleanup() {
      const keys = await redis.keys(`vigil-test-limits-${process.pid}-*`);
      if (keys.length > 0) await redis.del(...keys);
      await redis.quit();
    },
  };
};

describe(Limiter.name, () => {
  const shared = redisKeys();
  afterAll(() => shared.cleanup());

  // The same table against both stores: memory and Redis must do the same arithmetic.
  describe.each([
    ['memory', () => null],
    ['Redis', () => new RedisLimitStore(shared.redis, shared.prefix())],
  ])('with %s', (_name, store: () => LimitStore | null) => {
    let now: number;
    let sut: Limiter;

    beforeEach(() => {
      now = Date.now();
      sut = new Limiter(store(), () => now);
    });

    it('lets a burst through, then refuses with the wait until the next token', async () => {
      for (let i = 0; i < 3; i += 1) expect(await sut.wait(BUCKET, 'a')).toBe(0);
      expect(await sut.wait(BUCKET, 'a')).toBe(10_000);
      expect(await refusal(sut.take(BUCKET, 'a'))).toBe(10);
      expect(await sut.wait(BUCKET, 'b')).toBe(0);
      now += 10_000;
      expect(await sut.wait(BUCKET, 'a')).toBe(0);
      expect(await sut.wait(BUCKET, 'a')).toBe(10_000);
    });

    it('checks a key without taking from it', async () => {
      for (let i = 0; i < 10; i += 1) await sut.check(BUCKET, 'a');
      for (let i = 0; i < 3; i += 1) await sut.take(BUCKET, 'a');
      expect(await refusal(sut.check(BUCKET, 'a', 'auth.tooManyRegistrations'))).toBe(10);
      await expect(sut.check(BUCKET, 'a')).rejects.toMatchObject({ code: 'request.tooMany' });
      now += 10_000;
      expect(await refusal(sut.check(BUCKET, 'a'))).toBeNull();
    });

    it('takes nothing from any key when one of them is empty', async () => {
      for (let i = 0; i < 3; i += 1) await sut.take(BUCKET, 'token');
      expect(await refusal(sut.take(BUCKET, ['address', 'token']))).toBe(10);
      for (let i = 0; i < 3; i += 1) expect(await refusal(sut.take(BUCKET, 'address'))).toBeNull();
    });

    it('charges a cost at once and waits for what is missing, never for more than a full bucket', async () => {
      expect(await sut.wait(BUCKET, 'a', 2)).toBe(0);
      expect(await sut.wait(BUCKET, 'a', 2)).toBe(10_000);
      expect(await sut.wait(BUCKET, 'a', 5)).toBe(20_000);
      expect(await sut.wait(BUCKET, 'a', 1)).toBe(0);
    });

    it('keeps a fractional refill exact to the millisecond (one every 6 minutes)', async () => {
      const slow = bucketPolicy('slow', { burst: 1, perMinute: 10 / 60 });
      await sut.take(slow, 'a');
      expect(await sut.wait(slow, 'a')).toBe(360_000);
      now += 359_999;
      expect(await sut.wait(slow, 'a')).toBe(1);
      now += 1;
      expect(await sut.wait(slow, 'a')).toBe(0);
    });

    it('blocks a key past its free failures for a delay that doubles up to the maximum, and forgives it', async () => {
      await sut.fail(PENALTY, 'a');
      expect(await sut.blockedFor(PENALTY, 'a')).toBe(0);
      await sut.fail(PENALTY, 'a');
      expect(await sut.blockedFor(PENALTY, 'a')).toBe(1_000);
      expect(await sut.blockedFor(PENALTY, 'b')).toBe(0);
      await sut.fail(PENALTY, 'a');
      expect(await sut.blockedFor(PENALTY, 'a')).toBe(2_000);
      for (let i = 0; i < 5; i += 1) await sut.fail(PENALTY, 'a');
      expect(await sut.blockedFor(PENALTY, 'a')).toBe(5_000);
      now += 5_000;
      expect(await sut.blockedFor(PENALTY, 'a')).toBe(0);
      await sut.forgive(PENALTY, 'a');
      await sut.fail(PENALTY, 'a');
      expect(await sut.blockedFor(PENALTY, 'a')).toBe(0);
    });

    it('keeps policies apart under one key', async () => {
      const other = bucketPolicy('other', { burst: 3, perMinute: 6 });
      for (let i = 0; i < 3; i += 1) await sut.take(BUCKET, 'a');
      expect(await refusal(sut.take(other, 'a'))).toBeNull();
    });
  });

  describe('with Redis shared by two instances', () => {
    it('counts one allowance together, atomically under concurrent takes, in keys that expire', async () => {
      const prefix = shared.prefix();
      const now = Date.now();
      const a = new Limiter(new RedisLimitStore(shared.redis, prefix), () => now);
      const second = new Redis(REDIS_URL, { maxRetriesPerRequest: 1 });
      const b = new Limiter(new RedisLimitStore(second, prefix), () => now);
      const policy = bucketPolicy('together', { burst: 20, perMinute: 6 });
      // Forty takes at once from two instances (two connections): exactly the burst passes.
      const waits = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).wait(policy, '10.0.0.1')));
      expect(waits.filter((wait) => wait === 0)).toHaveLength(20);
      expect(await a.wait(policy, '10.0.0.2')).toBe(0);
      // Empty, refilled in 200 s: the key lives about that long (plus a second), not for ever.
      const ttl = await shared.redis.pttl(`${prefix}:together:10.0.0.1`);
      expect(ttl).toBeGreaterThan(199_000);
      expect(ttl).toBeLessThanOrEqual(201_000);
      await b.fail(PENALTY, 'x');
      await b.fail(PENALTY, 'x');
      expect(await a.blockedFor(PENALTY, 'x')).toBe(1_000);
      const forget = await shared.redis.pttl(`${prefix}:penalty:x`);
      expect(forget).toBeGreaterThan(59_000);
      expect(forget).toBeLessThanOrEqual(60_000);
      await a.forgive(PENALTY, 'x');
      expect(await b.blockedFor(PENALTY, 'x')).toBe(0);
      await second.quit();
    });
  });

  describe('when Redis is down', () => {
    let warn: jest.SpyInstance;
    let log: jest.SpyInstance;

    beforeEach(() => {
      warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
      log = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    });
    afterEach(() => jest.restoreAllMocks());

    it('falls back to memory, says so once, and says so again once Redis is back', async () => {
      const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0 });
      await redis.connect();
      // Commands on a closed connection fail at once, as on a failFast connection after its retries.
      redis.disconnect();
      const sut = new Limiter(new RedisLimitStore(redis, shared.prefix()));
      for (let i = 0; i < 3; i += 1) expect(await sut.wait(BUCKET, 'a')).toBe(0);
      expect(await sut.wait(BUCKET, 'a')).toBeGreaterThan(0);
      await sut.fail(PENALTY, 'a');
      await sut.fail(PENALTY, 'a');
      expect(await sut.blockedFor(PENALTY, 'a')).toBeGreaterThan(0);
      expect(sut.local.size(BUCKET)).toBe(1);
      expect(warn).toHaveBeenCalledTimes(1);
      expect(warn.mock.calls[0][0]).toMatch(/^Limits fall back to this instance's memory: /);
      await redis.connect();
      expect(await sut.wait(BUCKET, 'a')).toBe(0);
      expect(log).toHaveBeenCalledWith('Limits are shared through Redis again');
      expect(warn).toHaveBeenCalledTimes(1);
      redis.disconnect();
    });
  });
});

describe(MemoryLimitStore.name, () => {
  it('keeps at most maxKeys per policy, forgetting the least recently used, apart from other policies', () => {
    const sut = new MemoryLimitStore();
    const small = bucketPolicy('small', { burst: 1, perMinute: 1, maxKeys: 2 });
    const other = bucketPolicy('other', { burst: 1, perMinute: 1, maxKeys: 2 });
    sut.take(other, 'kept', 1, 0);
    sut.take(small, 'a', 1, 0);
    sut.take(small, 'b', 1, 0);
    sut.take(small, 'a', 0, 0); // a used again: b is now the least recent
    sut.take(small, 'c', 1, 0);
    expect(sut.size(small)).toBe(2);
    expect(sut.take(small, 'b', 1, 0)).toBe(0); // forgotten: full again
    expect(sut.take(small, 'c', 1, 0)).toBeGreaterThan(0);
    expect(sut.take(other, 'kept', 1, 0)).toBeGreaterThan(0);
  });

  it('stays within its bound under a flood of made-up failures, dropping the oldest first', () => {
    const sut = new MemoryLimitStore();
    const policy = penaltyPolicy('flood', { free: 1, baseMs: 1_000, maxMs: 1_000, forgetMs: 60_000, maxKeys: 1_000 });
    sut.fail(policy, 'keep', 0);
    for (let i = 0; i < 1_500; i += 1) sut.fail(policy, i, 0);
    expect(sut.size(policy)).toBe(1_000);
    expect(sut.blockedUntil(policy, 1_499, 0)).toBe(1_000);
    expect(sut.blockedUntil(policy, 'keep', 0)).toBe(0);
  });

  it('forgets failures after forgetMs', () => {
    const sut = new MemoryLimitStore();
    sut.fail(PENALTY, 'a', 0);
    sut.fail(PENALTY, 'a', 59_999);
    expect(sut.blockedUntil(PENALTY, 'a', 59_999)).toBe(60_999);
    sut.fail(PENALTY, 'b', 0);
    sut.fail(PENALTY, 'b', 60_000);
    // The first failure was forgotten: the second is the first again, free (blocked until now: not blocked).
    expect(sut.blockedUntil(PENALTY, 'b', 60_000)).toBe(60_000);
    expect(sut.size(PENALTY)).toBe(1 + 1);
  });
});
