import { Injectable } from '@nestjs/common';
import { bucketPolicy } from '../common/limits/limit-store';
import { Limiter } from '../common/limits/limiter';

/** Registrations one address may attempt: 10 at once, then one every 6 minutes (10 an hour). */
export const REGISTRATIONS = bucketPolicy('registrations', { burst: 10, perMinute: 10 / 60 });

/**
 * Self-registration attempts per address, open or closed, counted before anything else is done: an anonymous
 * flood of registrations gets 429 instead of database reads and password hashes. Counted by the `Limiter`, so shared
 * through Redis when REDIS_URL is set.
 */
@Injectable()
export class RegistrationLimiter {
  constructor(private readonly limiter: Limiter) {}

  /** Spends one of `address`'s attempts, or throws 429 with the wait. */
  take(address: string): Promise<void> {
    return this.limiter.take(REGISTRATIONS, address, 'auth.tooManyRegistrations');
  }
}
