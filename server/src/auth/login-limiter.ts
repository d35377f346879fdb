import { Injectable } from '@nestjs/common';
import {
  LOGIN_BLOCK_BASE_MS,
  LOGIN_BLOCK_MAX_MS,
  LOGIN_FORGET_AFTER_MS,
  LOGIN_FREE_FAILURES_PER_ADDRESS,
  LOGIN_FREE_FAILURES_PER_PAIR,
} from '@vigil/proto';
import { penaltyPolicy } from '../common/limits/limit-store';
import { Limiter } from '../common/limits/limiter';

const penalty = { baseMs: LOGIN_BLOCK_BASE_MS, maxMs: LOGIN_BLOCK_MAX_MS, forgetMs: LOGIN_FORGET_AFTER_MS };
/** Failures of one address trying one username (an owner mistyping, or one address guessing one account). */
export const LOGIN_PAIR = penaltyPolicy('login-pair', { free: LOGIN_FREE_FAILURES_PER_PAIR, ...penalty });
/** Failures of one address, whatever the username (one address spraying many accounts; offices share an address). */
export const LOGIN_ADDRESS = penaltyPolicy('login-address', { free: LOGIN_FREE_FAILURES_PER_ADDRESS, ...penalty });

/**
 * Slows password guessing without letting anyone lock an account: failures are counted per address and username
 * and per address. Past a few free failures a key blocks for a delay that doubles with each further failure. Nothing
 * is counted per username alone, so failures from elsewhere never stop the owner signing in from their own address.
 * Counted by the `Limiter`, so shared through Redis when REDIS_URL is set.
 */
@Injectable()
export class LoginLimiter {
  constructor(private readonly limiter: Limiter) {}

  /** Milliseconds until this address may try this username again (0: it may now). */
  async waitFor(address: string, username: string): Promise<number> {
    const [pair, perAddress] = await Promise.all([
      this.limiter.blockedFor(LOGIN_PAIR, pairKey(address, username)),
      this.limiter.blockedFor(LOGIN_ADDRESS, address),
    ]);
    return Math.max(pair, perAddress);
  }

  async recordFailure(address: string, username: string): Promise<void> {
    await this.limiter.fail(LOGIN_PAIR, pairKey(address, username));
    await this.limiter.fail(LOGIN_ADDRESS, address);
  }

  /**
   * The owner got in: their mistakes from this address are forgiven. The address count stays, or an attacker could
   * sign in to an account of their own between guesses to reset it.
   */
  async recordSuccess(address: string, username: string): Promise<void> {
    await this.limiter.forgive(LOGIN_PAIR, pairKey(address, username));
  }
}

function pairKey(address: string, username: string): string {
  return `${address}|${username.trim().toLowerCase().slice(0, 128)}`;
}
