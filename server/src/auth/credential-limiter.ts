import { Inject, Injectable } from '@nestjs/common';
import { RateLimitOptions, SharedRateLimiter } from '../common/rate-limiter';
import { REDIS, RedisHandle } from '../redis/redis.module';

/** Credentials presented without a session: an agent's (registration token, agent credential) or a wall screen's. */
export type CredentialKind = 'agent' | 'display';

/**
 * Unknown credentials one address may present: a burst of 20, then one a second (as many misses as push tokens
 * allow). Enough for a few agents whose token expired, far from what an attacker needs to hurt the database.
 */
export const CREDENTIAL_FAILURES: RateLimitOptions = { burst: 20, perMinute: 60 };

/**
 * Unknown credentials per address and kind: agent registration tokens and credentials (enrolment, xugou's register
 * and status, the `/agent` handshake) and display keys (wall data, wall sockets). Consulted before any lookup and
 * charged once per refused request after one, so an address costs the database a bounded number of lookups however
 * it spreads or batches its guesses. Shared through Redis when REDIS_URL is set.
 */
@Injectable()
export class CredentialLimiter {
  private readonly limiter: SharedRateLimiter;

  constructor(@Inject(REDIS) redis: RedisHandle | null) {
    this.limiter = SharedRateLimiter.acrossInstances(redis, 'credentials', 'unknown credentials', CREDENTIAL_FAILURES);
  }

  /** Seconds before `address` may present a credential of this kind again (0: now). */
  retryAfter(kind: CredentialKind, address: string): Promise<number> {
    return this.limiter.check(`${kind}:${address}`);
  }

  /** A credential of this kind from `address` matched nothing. */
  async failed(kind: CredentialKind, address: string): Promise<void> {
    await this.limiter.take(`${kind}:${address}`);
  }
}
