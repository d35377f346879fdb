import { Inject, Injectable } from '@nestjs/common';
import { tooManyRequests } from '../common/api-exception';
import { RateLimitOptions, SharedRateLimiter } from '../common/rate-limiter';
import { REDIS, RedisHandle } from '../redis/redis.module';

/** Registrations one address may attempt: 10 at once, then one every 6 minutes (10 an hour). */
export const REGISTRATIONS: RateLimitOptions = { burst: 10, perMinute: 10 / 60 };

/**
 * Self-registration attempts per address, open or closed, counted before anything else is done: an anonymous
 * flood of registrations gets 429 instead of database reads and password hashes. Shared through Redis when
 * REDIS_URL is set.
 */
@Injectable()
export class RegistrationLimiter {
  private readonly limiter: SharedRateLimiter;

  constructor(@Inject(REDIS) redis: RedisHandle | null) {
    this.limiter = SharedRateLimiter.acrossInstances(redis, 'registrations', 'registrations', REGISTRATIONS);
  }

  /** Spends one of `address`'s attempts, or throws 429 with the wait. */
  async take(address: string): Promise<void> {
    const wait = await this.limiter.take(address);
    if (wait > 0) throw tooManyRequests('auth.tooManyRegistrations', wait);
  }
}
