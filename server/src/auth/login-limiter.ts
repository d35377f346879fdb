import { Logger } from '@nestjs/common';
import { RedisOrMemory } from '../common/redis-or-memory';
import type { Redis } from 'ioredis';
import {
  LOGIN_BLOCK_BASE_MS,
  LOGIN_BLOCK_MAX_MS,
  LOGIN_FREE_FAILURES_PER_ADDRESS,
  LOGIN_FREE_FAILURES_PER_PAIR,
  LOGIN_FORGET_AFTER_MS,
} from '@vigil/proto';

/** One bucket of failures, e.g. "this address" or "this address trying this username". */
interface Bucket {
  failures: number;
  /** No attempt counted against this bucket is verified before this time. */
  blockedUntil: number;
  /** The failures are forgotten after this time. */
  forgetAt: number;
}

/** Where buckets live: this process, or Redis so every instance of a scale-out installation sees the same. */
export interface LimiterStore {
  /** The latest `blockedUntil` of these buckets (0 when none is blocked or known). */
  blockedUntil(keys: string[], now: number): Promise<number>;
  /** Counts a failure; once past `free` failures the bucket is blocked for a delay doubling with each failure. */
  fail(key: string, free: number, now: number): Promise<void>;
  clear(key: string): Promise<void>;
}

/** Delay after the `failures`-th failure of a bucket that allows `free` ones: 0, then base, 2×base, … up to max. */
export function blockDelay(failures: number, free: number): number {
  if (failures < free) return 0;
  return Math.min(LOGIN_BLOCK_BASE_MS * 2 ** Math.min(failures - free, 30), LOGIN_BLOCK_MAX_MS);
}

/** Buckets kept at most; past it the oldest go first, so a flood of made-up names cannot grow memory. */
export const MEMORY_MAX_BUCKETS = 50_000;

export class MemoryLimiterStore implements LimiterStore {
  private readonly buckets = new Map<string, Bucket>();

  get size(): number {
    return this.buckets.size;
  }

  async blockedUntil(keys: string[], now: number): Promise<number> {
    return Math.max(0, ...keys.map((key) => this.live(key, now)?.blockedUntil ?? 0));
  }

  async fail(key: string, free: number, now: number): Promise<void> {
    const failures = (this.live(key, now)?.failures ?? 0) + 1;
    const blockedUntil = now + blockDelay(failures, free);
    // Re-inserted so the map's order is least recently failed first, which is what eviction drops.
    this.buckets.delete(key);
    if (this.buckets.size >= MEMORY_MAX_BUCKETS) this.evict(now);
    this.buckets.set(key, { failures, blockedUntil, forgetAt: Math.max(blockedUntil, now + LOGIN_FORGET_AFTER_MS) });
  }

  async clear(key: string): Promise<void> {
    this.buckets.delete(key);
  }

  private live(key: string, now: number): Bucket | undefined {
    const bucket = this.buckets.get(key);
    if (bucket && bucket.forgetAt <= now) {
      this.buckets.delete(key);
      return undefined;
    }
    return bucket;
  }

  private evict(now: number): void {
    for (const [key, bucket] of this.buckets) if (bucket.forgetAt <= now) this.buckets.delete(key);
    const excess = this.buckets.size - Math.floor(MEMORY_MAX_BUCKETS * 0.9);
    if (excess <= 0) return;
    let dropped = 0;
    for (const key of this.buckets.keys()) {
      if (dropped++ >= excess) break;
      this.buckets.delete(key);
    }
  }
}

/** KEYS[1] bucket; ARGV now, free, base, max, forget. Same arithmetic as `blockDelay`, atomic across instances. */
const FAIL_SCRIPT = `
local failures = redis.call('HINCRBY', KEYS[1], 'f', 1)
local now = tonumber(ARGV[1])
local free = tonumber(ARGV[2])
local blocked = now
if failures >= free then
  blocked = now + math.min(tonumber(ARGV[3]) * 2 ^ math.min(failures - free, 30), tonumber(ARGV[4]))
end
redis.call('HSET', KEYS[1], 'u', blocked)
redis.call('PEXPIRE', KEYS[1], math.max(tonumber(ARGV[5]), blocked - now))
return failures
`;

/** Buckets in Redis (hashes that expire by themselves), shared by every instance. */
export class RedisLimiterStore implements LimiterStore {
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}

  async blockedUntil(keys: string[], now: number): Promise<number> {
    const values = await Promise.all(keys.map((key) => this.redis.hget(this.key(key), 'u')));
    return Math.max(0, ...values.map((value) => Number(value ?? 0)).filter((until) => until > now));
  }

  async fail(key: string, free: number, now: number): Promise<void> {
    await this.redis.eval(FAIL_SCRIPT, 1, this.key(key), now, free, LOGIN_BLOCK_BASE_MS, LOGIN_BLOCK_MAX_MS, LOGIN_FORGET_AFTER_MS);
  }

  async clear(key: string): Promise<void> {
    await this.redis.del(this.key(key));
  }

  private key(key: string): string {
    return `${this.prefix}:login:${key}`;
  }
}

/**
 * Slows password guessing without letting anyone lock an account: failures are counted per address and username
 * (an owner mistyping, or one address guessing one account) and per address (one address spraying many accounts).
 * Past a few free failures a bucket blocks for a delay that doubles with each further failure. Nothing is counted per
 * username alone, so failures from elsewhere never stop the owner signing in from their own address.
 * A Redis store that fails falls back to this process's memory, so the limit still holds per instance.
 */
export class LoginLimiter {
  private readonly stores: RedisOrMemory<LimiterStore>;

  constructor(
    shared: LimiterStore | null = null,
    private readonly now: () => number = Date.now,
  ) {
    this.stores = new RedisOrMemory('Login limits', new Logger(LoginLimiter.name), new MemoryLimiterStore(), shared);
  }

  /** Milliseconds until this address may try this username again (0: it may now). */
  async waitFor(address: string, username: string): Promise<number> {
    const now = this.now();
    const until = await this.use((store) => store.blockedUntil(this.keys(address, username), now));
    return Math.max(0, until - now);
  }

  async recordFailure(address: string, username: string): Promise<void> {
    const now = this.now();
    const [pair, perAddress] = this.keys(address, username);
    await this.use(async (store) => {
      await store.fail(pair, LOGIN_FREE_FAILURES_PER_PAIR, now);
      await store.fail(perAddress, LOGIN_FREE_FAILURES_PER_ADDRESS, now);
    });
  }

  /**
   * The owner got in: their mistakes from this address are forgiven. The address bucket stays, or an attacker could
   * sign in to an account of their own between guesses to reset it.
   */
  async recordSuccess(address: string, username: string): Promise<void> {
    await this.use((store) => store.clear(this.keys(address, username)[0]));
  }

  private keys(address: string, username: string): [string, string] {
    return [`pair:${address}|${username.trim().toLowerCase().slice(0, 128)}`, `addr:${address}`];
  }

  private use<T>(work: (store: LimiterStore) => Promise<T>): Promise<T> {
    return this.stores.use(work);
  }
}
