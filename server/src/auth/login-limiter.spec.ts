import {
  LOGIN_BLOCK_BASE_MS,
  LOGIN_BLOCK_MAX_MS,
  LOGIN_FORGET_AFTER_MS,
  LOGIN_FREE_FAILURES_PER_ADDRESS,
  LOGIN_FREE_FAILURES_PER_PAIR,
} from '@vigil/proto';
import { Logger } from '@nestjs/common';
import { Redis } from 'ioredis';
import { blockDelay, type LimitStore } from '../common/limits/limit-store';
import { Limiter } from '../common/limits/limiter';
import { RedisLimitStore } from '../common/limits/redis-limit.store';
import { LOGIN_ADDRESS, LOGIN_PAIR, LoginLimiter } from './login-limiter';

describe('blockDelay of sign-in failures', () => {
  it.each([
    [1, 0],
    [4, 0],
    [5, LOGIN_BLOCK_BASE_MS],
    [6, 2 * LOGIN_BLOCK_BASE_MS],
    [7, 4 * LOGIN_BLOCK_BASE_MS],
    [50, LOGIN_BLOCK_MAX_MS],
    [10_000, LOGIN_BLOCK_MAX_MS],
  ])('after failure %i of an address and username, blocks for %i ms', (failures, delay) => {
    expect(LOGIN_PAIR.free).toBe(5);
    expect(blockDelay(failures, LOGIN_PAIR)).toBe(delay);
  });
});

describe.each([
  ['memory', () => null],
  ['a failing Redis (falls back to memory)', () => new RedisLimitStore(brokenRedis(), 'test')],
])('LoginLimiter with %s', (_name, shared: () => LimitStore | null) => {
  let now: number;
  let sut: LoginLimiter;

  beforeAll(() => jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined));
  afterAll(() => jest.restoreAllMocks());
  beforeEach(() => {
    now = 1_000_000;
    sut = new LoginLimiter(new Limiter(shared(), () => now));
  });

  const fail = async (times: number, address: string, username: string) => {
    for (let i = 0; i < times; i += 1) await sut.recordFailure(address, username);
  };

  it('slows one address guessing one account, with a delay that doubles', async () => {
    await fail(LOGIN_FREE_FAILURES_PER_PAIR - 1, '10.0.0.1', 'alice');
    expect(await sut.waitFor('10.0.0.1', 'alice')).toBe(0);
    await sut.recordFailure('10.0.0.1', 'Alice');
    expect(await sut.waitFor('10.0.0.1', 'ALICE')).toBe(LOGIN_BLOCK_BASE_MS);
    now += LOGIN_BLOCK_BASE_MS;
    expect(await sut.waitFor('10.0.0.1', 'alice')).toBe(0);
    await sut.recordFailure('10.0.0.1', 'alice');
    expect(await sut.waitFor('10.0.0.1', 'alice')).toBe(2 * LOGIN_BLOCK_BASE_MS);
  });

  it('never locks the owner out from another address, however many failures come from elsewhere', async () => {
    await fail(200, '10.0.0.1', 'alice');
    for (let i = 2; i < 50; i += 1) await fail(LOGIN_FREE_FAILURES_PER_PAIR - 1, `10.0.0.${i}`, 'alice');
    expect(await sut.waitFor('10.0.0.1', 'alice')).toBe(LOGIN_BLOCK_MAX_MS);
    expect(await sut.waitFor('192.168.1.7', 'alice')).toBe(0);
  });

  it('blocks an address spraying many usernames, for every username', async () => {
    for (let i = 0; i < LOGIN_FREE_FAILURES_PER_ADDRESS; i += 1) await sut.recordFailure('10.0.0.1', `user${i}`);
    expect(await sut.waitFor('10.0.0.1', 'someone-new')).toBe(LOGIN_BLOCK_BASE_MS);
    expect(await sut.waitFor('10.0.0.2', 'someone-new')).toBe(0);
  });

  it('forgets failures some time after the last one', async () => {
    await fail(LOGIN_FREE_FAILURES_PER_PAIR - 1, '10.0.0.1', 'alice');
    now += LOGIN_FORGET_AFTER_MS + 1;
    await sut.recordFailure('10.0.0.1', 'alice');
    expect(await sut.waitFor('10.0.0.1', 'alice')).toBe(0);
  });

  it("forgives the owner's own mistakes on success but keeps the address record", async () => {
    await fail(LOGIN_FREE_FAILURES_PER_PAIR - 1, '10.0.0.1', 'alice');
    await sut.recordSuccess('10.0.0.1', 'alice');
    await sut.recordFailure('10.0.0.1', 'alice');
    expect(await sut.waitFor('10.0.0.1', 'alice')).toBe(0);
    await fail(LOGIN_FREE_FAILURES_PER_ADDRESS, '10.0.0.1', 'x');
    expect(await sut.waitFor('10.0.0.1', 'alice')).toBeGreaterThan(0);
  });
});

describe('LoginLimiter through Redis', () => {
  let redis: Redis;
  const prefix = `vigil-test-login-${process.pid}-${Date.now()}`;

  beforeAll(() => {
    redis = new Redis(process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
  });
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}:*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  it('shares blocks between instances with the same arithmetic as memory', async () => {
    let now = Date.now();
    const a = new LoginLimiter(new Limiter(new RedisLimitStore(redis, prefix), () => now));
    const b = new LoginLimiter(new Limiter(new RedisLimitStore(redis, prefix), () => now));
    for (let i = 0; i < LOGIN_FREE_FAILURES_PER_PAIR; i += 1) await (i % 2 ? a : b).recordFailure('10.0.0.1', 'alice');
    expect(await a.waitFor('10.0.0.1', 'alice')).toBe(LOGIN_BLOCK_BASE_MS);
    expect(await b.waitFor('10.0.0.1', 'alice')).toBe(LOGIN_BLOCK_BASE_MS);
    expect(await b.waitFor('10.0.0.2', 'alice')).toBe(0);
    now += LOGIN_BLOCK_BASE_MS;
    await b.recordFailure('10.0.0.1', 'alice');
    expect(await a.waitFor('10.0.0.1', 'alice')).toBe(2 * LOGIN_BLOCK_BASE_MS);
    await a.recordSuccess('10.0.0.1', 'alice');
    expect(await b.waitFor('10.0.0.1', 'alice')).toBe(0);
    const ttl = await redis.pttl(`${prefix}:${LOGIN_ADDRESS.name}:10.0.0.1`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(LOGIN_FORGET_AFTER_MS);
  });
});

/** A Redis whose every command fails at once, as one that went away would after its retries. */
function brokenRedis(): Redis {
  const fail = () => Promise.reject(new Error('Connection is closed.'));
  return { hget: fail, del: fail, defineCommand: () => undefined, vigilLimitTake: fail, vigilLimitFail: fail } as unknown as Redis;
}
