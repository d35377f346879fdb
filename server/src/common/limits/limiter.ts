import { Logger } from '@nestjs/common';
import type { MessageCode } from '@vigil/proto';
import type { RedisHandle } from '../../redis/redis.module';
import { tooManyRequests } from '../api-exception';
import type { BucketPolicy, LimitKey, LimitPolicy, LimitStore, PenaltyPolicy } from './limit-store';
import { MemoryLimitStore } from './memory-limit.store';
import { RedisLimitStore } from './redis-limit.store';

/** A wait in milliseconds as `Retry-After` says it: whole seconds, at least 1. */
export const retryAfterSeconds = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));

/**
 * Every rate limit of the server, each a named policy (`limit-store.ts`) kept here. Counts live in Redis when
 * REDIS_URL is set, so a limit holds across instances whatever the load balancer does, else in this process's
 * memory. A Redis that fails falls back to memory (the limit then holds per instance), saying so once each way.
 * `local` is the memory store itself, answered synchronously, for limits that are per instance by design (the
 * per-agent report limits: an agent's socket lives on one instance, and a Redis round trip per report would cost
 * more than the limit protects).
 */
export class Limiter {
  private readonly logger = new Logger(Limiter.name);
  private redisFailed = false;

  constructor(
    private readonly shared: LimitStore | null = null,
    private readonly now: () => number = Date.now,
    readonly local = new MemoryLimitStore(),
  ) {}

  /** Kept in Redis under `<REDIS_PREFIX>:limit:` when REDIS_URL is set (`redis`), else in this process's memory. */
  static forRedis(redis: RedisHandle | null): Limiter {
    return new Limiter(redis ? new RedisLimitStore(redis.connect({ failFast: true }), `${redis.prefix}:limit`) : null);
  }

  /** Milliseconds until every key's bucket holds `cost` tokens (0: they did, and `cost` was taken; 0 takes nothing). */
  wait(policy: BucketPolicy, keys: LimitKey | readonly LimitKey[], cost = 1): Promise<number> {
    const now = this.now();
    return this.use((store) => store.take(policy, keys, cost, now));
  }

  /** Takes one token from every key's bucket, or throws 429 with `Retry-After`, taking none, when one is empty. */
  async take(policy: BucketPolicy, keys: LimitKey | readonly LimitKey[], code: MessageCode = 'request.tooMany'): Promise<void> {
    const ms = await this.wait(policy, keys, 1);
    if (ms > 0) throw tooManyRequests(code, retryAfterSeconds(ms));
  }

  /** Throws 429 with `Retry-After` when one key's bucket is empty; takes nothing (limits that count only failures). */
  async check(policy: BucketPolicy, keys: LimitKey | readonly LimitKey[], code: MessageCode = 'request.tooMany'): Promise<void> {
    const ms = await this.wait(policy, keys, 0);
    if (ms > 0) throw tooManyRequests(code, retryAfterSeconds(ms));
  }

  /** Milliseconds until the key's block ends (0: not blocked). */
  async blockedFor(policy: PenaltyPolicy, key: LimitKey): Promise<number> {
    const now = this.now();
    const until = await this.use((store) => store.blockedUntil(policy, key, now));
    return Math.max(0, until - now);
  }

  /** Counts a failure against the key. */
  async fail(policy: PenaltyPolicy, key: LimitKey): Promise<void> {
    const now = this.now();
    await this.use((store) => store.fail(policy, key, now));
  }

  /** Forgets the key's failures (or refills its bucket). */
  async forgive(policy: LimitPolicy, key: LimitKey): Promise<void> {
    await this.use((store) => store.clear(policy, key));
  }

  private async use<T>(work: (store: LimitStore) => T | Promise<T>): Promise<T> {
    if (!this.shared) return work(this.local);
    try {
      const result = await work(this.shared);
      if (this.redisFailed) this.logger.log('Limits are shared through Redis again');
      this.redisFailed = false;
      return result;
    } catch (error) {
      if (!this.redisFailed) this.logger.warn(`Limits fall back to this instance's memory: ${(error as Error).message}`);
      this.redisFailed = true;
      return work(this.local);
    }
  }
}
