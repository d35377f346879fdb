import { tooManyRequests } from './api-exception';

interface Bucket {
  tokens: number;
  at: number;
}

/**
 * Token buckets by key (an address, a user, a push token), in this process: `burst` requests at once, refilled at
 * `perMinute`. Memory is bounded: at most `maxKeys` buckets, the one used least recently forgotten first (it comes back
 * full, which only ever lets a little more through). With several instances each limits what it serves.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();

  constructor(private readonly options: { burst: number; perMinute: number; maxKeys?: number }) {}

  /** Takes one token from every key's bucket, or throws 429 with the wait, taking none, when one is empty. */
  take(keys: string[], now = Date.now()): void {
    const perMs = this.options.perMinute / 60_000;
    const buckets = keys.map((key) => this.bucket(key, now, perMs));
    const empty = buckets.find((bucket) => bucket.tokens < 1);
    if (empty) throw tooManyRequests('request.tooMany', Math.max(1, Math.ceil((1 - empty.tokens) / perMs / 1000)));
    for (const bucket of buckets) bucket.tokens -= 1;
  }

  /** Throws 429 with the wait when one key's bucket is empty; takes nothing (for limits that count only failures). */
  check(keys: string[], now = Date.now()): void {
    const perMs = this.options.perMinute / 60_000;
    const empty = keys.map((key) => this.bucket(key, now, perMs)).find((bucket) => bucket.tokens < 1);
    if (empty) throw tooManyRequests('request.tooMany', Math.max(1, Math.ceil((1 - empty.tokens) / perMs / 1000)));
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
