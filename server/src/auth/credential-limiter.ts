import { Inject, Injectable } from '@nestjs/common';
import { bucketPolicy, type BucketPolicy } from '../common/limits/limit-store';
import { Limiter, retryAfterSeconds } from '../common/limits/limiter';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';

/** Credentials presented without a session: an agent's (registration token, agent credential), a wall screen's or an API key. */
export type CredentialKind = 'agent' | 'display' | 'apiKey';

/**
 * Unknown credentials one address may present: a burst of 20, then `perMinute` (CREDENTIAL_FAILURES_PER_MINUTE, one a
 * second by default, as many misses as push tokens allow). Enough for a few agents whose token expired, far from what
 * an attacker needs to hurt the database.
 */
export const credentialFailures = (perMinute: number): BucketPolicy => bucketPolicy('credentials', { burst: 20, perMinute });

/**
 * Unknown credentials per address and kind: agent registration tokens and credentials (enrolment, xugou's register
 * and status, the `/agent` handshake) and display keys (wall data, wall sockets). Consulted before any lookup and
 * charged once per refused request after one, so an address costs the database a bounded number of lookups however
 * it spreads or batches its guesses. Counted by the `Limiter`, so shared through Redis when REDIS_URL is set.
 */
@Injectable()
export class CredentialLimiter {
  readonly policy: BucketPolicy;

  constructor(
    private readonly limiter: Limiter,
    @Inject(APP_CONFIG) config: Pick<AppConfig, 'credentialFailuresPerMinute'>,
  ) {
    this.policy = credentialFailures(config.credentialFailuresPerMinute);
  }

  /** Seconds before `address` may present a credential of this kind again (0: now). */
  async retryAfter(kind: CredentialKind, address: string): Promise<number> {
    const ms = await this.limiter.wait(this.policy, `${kind}:${address}`, 0);
    return ms > 0 ? retryAfterSeconds(ms) : 0;
  }

  /** A credential of this kind from `address` matched nothing. */
  async failed(kind: CredentialKind, address: string): Promise<void> {
    await this.limiter.wait(this.policy, `${kind}:${address}`);
  }
}
