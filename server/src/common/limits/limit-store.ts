/** What a limit counts by: an address, a user, a token (a string), or an agent id (a number, no string built). */
export type LimitKey = string | number;

/**
 * A token bucket: `burst` requests at once, refilled at `perMinute` (a fraction for slow limits: 1/6 is one every 6
 * minutes). Used for limits on every request (pushes, test checks, agent reports) and on failures counted one by one
 * (unknown credentials, registrations).
 */
export interface BucketPolicy {
  readonly kind: 'bucket';
  /** The key space, unique per limit: Redis keys are `<REDIS_PREFIX>:limit:<name>:<key>`. */
  readonly name: string;
  readonly burst: number;
  readonly perMinute: number;
  /** Keys kept in memory at most (default 50,000); the least recently used is forgotten first and comes back full. */
  readonly maxKeys?: number;
}

/**
 * Failures with a penalty: `free` failures pass, the one that uses them up blocks the key for `baseMs`, each further
 * failure doubles that up to `maxMs`; failures are forgotten `forgetMs` after the last one. Used for sign-in.
 */
export interface PenaltyPolicy {
  readonly kind: 'penalty';
  readonly name: string;
  readonly free: number;
  readonly baseMs: number;
  readonly maxMs: number;
  readonly forgetMs: number;
  readonly maxKeys?: number;
}

export type LimitPolicy = BucketPolicy | PenaltyPolicy;

export const bucketPolicy = (name: string, options: Omit<BucketPolicy, 'kind' | 'name'>): BucketPolicy => ({
  kind: 'bucket',
  name,
  ...options,
});
export const penaltyPolicy = (name: string, options: Omit<PenaltyPolicy, 'kind' | 'name'>): PenaltyPolicy => ({
  kind: 'penalty',
  name,
  ...options,
});

/** Delay after the `failures`-th failure of a key: 0 while free, then base, 2×base, … up to max. */
export function blockDelay(failures: number, policy: PenaltyPolicy): number {
  if (failures < policy.free) return 0;
  return Math.min(policy.baseMs * 2 ** Math.min(failures - policy.free, 30), policy.maxMs);
}

/**
 * Where a limiter keeps its counts: this process's memory (answers at once) or Redis (every instance counts together).
 * Both do the same arithmetic; `limiter.spec.ts` runs the same table against both.
 */
export interface LimitStore {
  /**
   * Milliseconds until every key's bucket holds `cost` tokens (0: they do, and `cost` was taken from each). Cost 0
   * only checks for one token and takes nothing. A refusal takes nothing from any key.
   */
  take(policy: BucketPolicy, keys: LimitKey | readonly LimitKey[], cost: number, now: number): number | Promise<number>;
  /** When the key's block ends (0 or a past time: not blocked). */
  blockedUntil(policy: PenaltyPolicy, key: LimitKey, now: number): number | Promise<number>;
  /** Counts a failure against the key, blocking it once past the policy's free failures. */
  fail(policy: PenaltyPolicy, key: LimitKey, now: number): void | Promise<void>;
  /** Forgets the key (its failures, or its bucket: full again). */
  clear(policy: LimitPolicy, key: LimitKey): void | Promise<void>;
}

/** Less a microsecond, so float noise (10/60 a minute) does not round a whole wait up by a millisecond. */
export const EPSILON_MS = 1e-6;
/** A bucket this close to a token holds it: a refill of 10/60 a minute over 6 minutes sums to 0.9999999999999999. */
export const EPSILON_TOKENS = 1e-9;
/** Keys a policy keeps in memory unless it says otherwise. */
export const DEFAULT_MAX_KEYS = 50_000;
