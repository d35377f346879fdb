import {
  blockDelay,
  type BucketPolicy,
  DEFAULT_MAX_KEYS,
  EPSILON_MS,
  EPSILON_TOKENS,
  type LimitKey,
  type LimitPolicy,
  type LimitStore,
  type PenaltyPolicy,
} from './limit-store';

interface Bucket {
  tokens: number;
  at: number;
}

interface Failures {
  failures: number;
  /** Not verified before this time. */
  blockedUntil: number;
  /** Forgotten after this time. */
  forgetAt: number;
}

/**
 * Counts in this process, answered synchronously (the per-agent report limits call it on every message). Each
 * policy has its own map, bounded by its `maxKeys`: a key is re-inserted on every use, so the first one is the least
 * recently used and goes first. Separate maps keep a flood on one limit (made-up push tokens) from evicting another's
 * counts (sign-in failures). A bucket forgotten comes back full, which only ever lets a little more through.
 */
export class MemoryLimitStore implements LimitStore {
  private readonly spaces = new Map<string, Map<LimitKey, Bucket | Failures>>();

  /** Keys the policy holds now. */
  size(policy: LimitPolicy): number {
    return this.spaces.get(policy.name)?.size ?? 0;
  }

  take(policy: BucketPolicy, keys: LimitKey | readonly LimitKey[], cost: number, now: number): number {
    const perMs = policy.perMinute / 60_000;
    const need = cost > 0 ? cost : 1;
    // One key, the hot path (an agent's report): no array.
    if (!Array.isArray(keys)) {
      const bucket = this.bucket(policy, keys as LimitKey, now, perMs);
      if (bucket.tokens + EPSILON_TOKENS < need) return waitMs(policy, need, bucket.tokens, perMs);
      bucket.tokens -= cost;
      return 0;
    }
    const buckets = (keys as readonly LimitKey[]).map((key) => this.bucket(policy, key, now, perMs));
    const lowest = Math.min(...buckets.map((bucket) => bucket.tokens));
    if (lowest + EPSILON_TOKENS < need) return waitMs(policy, need, lowest, perMs);
    for (const bucket of buckets) bucket.tokens -= cost;
    return 0;
  }

  blockedUntil(policy: PenaltyPolicy, key: LimitKey, now: number): number {
    return this.failures(policy, key, now)?.blockedUntil ?? 0;
  }

  fail(policy: PenaltyPolicy, key: LimitKey, now: number): void {
    const failures = (this.failures(policy, key, now)?.failures ?? 0) + 1;
    const blockedUntil = now + blockDelay(failures, policy);
    this.put(policy, key, { failures, blockedUntil, forgetAt: Math.max(blockedUntil, now + policy.forgetMs) });
  }

  clear(policy: LimitPolicy, key: LimitKey): void {
    this.spaces.get(policy.name)?.delete(key);
  }

  private bucket(policy: BucketPolicy, key: LimitKey, now: number, perMs: number): Bucket {
    const space = this.space(policy);
    let bucket = space.get(key) as Bucket | undefined;
    if (bucket) {
      bucket.tokens = Math.min(policy.burst, bucket.tokens + Math.max(0, now - bucket.at) * perMs);
      bucket.at = now;
    } else bucket = { tokens: policy.burst, at: now };
    this.put(policy, key, bucket);
    return bucket;
  }

  private failures(policy: PenaltyPolicy, key: LimitKey, now: number): Failures | undefined {
    const space = this.spaces.get(policy.name);
    const entry = space?.get(key) as Failures | undefined;
    if (entry && entry.forgetAt <= now) {
      space!.delete(key);
      return undefined;
    }
    return entry;
  }

  /** (Re-)inserts last, so the map's order is least recently used first, which is what the bound drops. */
  private put(policy: LimitPolicy, key: LimitKey, entry: Bucket | Failures): void {
    const space = this.space(policy);
    space.delete(key);
    space.set(key, entry);
    if (space.size > (policy.maxKeys ?? DEFAULT_MAX_KEYS)) space.delete(space.keys().next().value!);
  }

  private space(policy: LimitPolicy): Map<LimitKey, Bucket | Failures> {
    let space = this.spaces.get(policy.name);
    if (!space) this.spaces.set(policy.name, (space = new Map()));
    return space;
  }
}

/** Milliseconds until a bucket at `tokens` holds `need` (never more than the burst: a bigger cost waits for a full one). */
function waitMs(policy: BucketPolicy, need: number, tokens: number, perMs: number): number {
  return Math.max(1, Math.ceil((Math.min(need, policy.burst) - tokens) / perMs - EPSILON_MS));
}
