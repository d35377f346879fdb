import { Logger } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { RedisHandle } from '../redis/redis.module';
import { RedisOrMemory } from './redis-or-memory';
import { tooManyRequests } from './api-exception';

export interface RateLimitOptions {
  /** Requests at once. */
  burst: number;
  /** Tokens regained per minute (a fraction for slow limits: 1/6 is one every 6 minutes). */
  perMinute: number;
  /** Buckets kept in memory at most. */
  maxKeys?: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

/** Seconds of a wait in milliseconds, as `Retry-After` says it (at least 1). */
const seconds = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));

/**
 * Token buckets by key (an address, a user, a push token), in this process: `burst` requests at once, refilled at
 * `perMinute`. Memory is bounded: at most `maxKeys` buckets, the one used least recently forgotten first (it comes back
 * full, which only ever lets a little more through). With several instances each limits what it serves; limits that
 * must hold across instances use `SharedRateLimiter`.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(private readonly options: RateLimitOptions) {}

  /** Takes one token from every key's bucket, or throws 429 with the wait, taking none, when one is empty. */
  take(keys: string[], now = Date.now()): void {
    const waitMs = this.wait(keys, true, now);
    if (waitMs > 0) throw tooManyRequests('request.tooMany', seconds(waitMs));
  }

  /** Throws 429 with the wait when one key's bucket is empty; takes nothing (for limits that count only failures). */
  check(keys: string[], now = Date.now()): void {
    const waitMs = this.wait(keys, false, now);
    if (waitMs > 0) throw tooManyRequests('request.tooMany', seconds(waitMs));
  }

  /** Milliseconds until every key's bucket holds a token (0: they do, and `take` took one from each). */
  wait(keys: string[], take: boolean, now = Date.now()): number {
    const perMs = this.options.perMinute / 60_000;
    const buckets = keys.map((key) => this.bucket(key, now, perMs));
    const lowest = Math.min(...buckets.map((bucket) => bucket.tokens));
    // Less a microsecond, so float noise (10/60 a minute) does not round a whole wait up by a millisecond.
    if (lowest < 1) return Math.max(1, Math.ceil((1 - lowest) / perMs - 1e-6));
    if (take) for (const bucket of buckets) bucket.tokens -= 1;
    return 0;
  }

  get tracked(): number {
    return this.buckets.size;
  }

  private bucket(key: string, now: number, perMs: number): Bucket {
    let bucket = this.buckets.get(key);
    if (bucket) this.buckets.delete(key);
    else bucket = { tokens: this.options.burst, at: now };
    bucket.tokens = Math.min(this.options.burst, bucket.tokens + Math.max(0, now - bucket.at) * perMs);
    bucket.at = now;
    // Re-inserted on every use, so the map's first key is the one used least recently.
    this.buckets.set(key, bucket);
    if (this.buckets.size > (this.options.maxKeys ?? 50_000)) this.buckets.delete(this.buckets.keys().next().value!);
    return bucket;
  }
}

/** Where a `SharedRateLimiter` keeps its buckets when they are shared. */
export interface BucketStore {
  /** Milliseconds until `key`'s bucket holds a token (0: it does, and `take` took one). */
  wait(key: string, take: boolean, now: number): Promise<number>;
}

/**
 * KEYS[1] bucket; ARGV now, burst, perMinute, take. `RateLimiter.wait`'s arithmetic for one key, atomic across
 * instances; a bucket expires once it would be full again.
 */
const TAKE_SCRIPT = `
local now = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local perMs = tonumber(ARGV[3]) / 60000
local tokens = burst
local stored = redis.call('HMGET', KEYS[1], 't', 'a')
if stored[1] then
  tokens = math.min(burst, tonumber(stored[1]) + math.max(0, now - tonumber(stored[2])) * perMs)
end
if tokens < 1 then
  return math.max(1, math.ceil((1 - tokens) / perMs - 0.000001))
end
if ARGV[4] == '1' then
  tokens = tokens - 1
  redis.call('HSET', KEYS[1], 't', tostring(tokens), 'a', tostring(now))
  redis.call('PEXPIRE', KEYS[1], math.ceil((burst - tokens) / perMs) + 1000)
end
return 0
`;

/** Buckets in Redis (hashes that expire by themselves), shared by every instance. */
export class RedisBucketStore implements BucketStore {
  constructor(
    private readonly redis: Redis,
    /** Key namespace, e.g. `vigil:limit:credentials`. */
    private readonly prefix: string,
    private readonly options: RateLimitOptions,
  ) {}

  async wait(key: string, take: boolean, now: number): Promise<number> {
    const { burst, perMinute } = this.options;
    return Number(await this.redis.eval(TAKE_SCRIPT, 1, `${this.prefix}:${key}`, now, burst, perMinute, take ? '1' : '0'));
  }
}

/**
 * A `RateLimiter` whose buckets live in Redis when REDIS_URL is set, so every instance spends one allowance (as the
 * login limiter's do). A Redis that fails falls back to this process's memory, so the limit still holds per instance.
 * Answers in seconds to wait, for an HTTP `Retry-After` or a socket refusal's `retry_after`.
 */
export class SharedRateLimiter {
  private readonly stores: RedisOrMemory<BucketStore>;

  constructor(
    /** What is limited, for log lines. */
    name: string,
    options: RateLimitOptions,
    shared: BucketStore | null = null,
    private readonly now: () => number = Date.now,
  ) {
    const memory = new RateLimiter(options);
    const local: BucketStore = { wait: (key, take, now) => Promise.resolve(memory.wait([key], take, now)) };
    this.stores = new RedisOrMemory(`Limits on ${name}`, new Logger(`${SharedRateLimiter.name}(${name})`), local, shared);
  }

  /** Kept in Redis under `<prefix>:limit:<key>` when REDIS_URL is set (`redis`), else in this process's memory. */
  static acrossInstances(redis: RedisHandle | null, key: string, name: string, options: RateLimitOptions): SharedRateLimiter {
    const shared = redis ? new RedisBucketStore(redis.connect({ failFast: true }), `${redis.prefix}:limit:${key}`, options) : null;
    return new SharedRateLimiter(name, options, shared);
  }

  /** Takes one token of `key`'s bucket: 0, or the seconds to wait when it is empty (nothing taken). */
  async take(key: string): Promise<number> {
    return this.wait(key, true);
  }

  /** The seconds until `key`'s bucket holds a token (0: it does now); takes nothing. */
  async check(key: string): Promise<number> {
    return this.wait(key, false);
  }

  private async wait(key: string, take: boolean): Promise<number> {
    const now = this.now();
    const waitMs = await this.stores.use((store) => store.wait(key, take, now));
    return waitMs > 0 ? seconds(waitMs) : 0;
  }
}
