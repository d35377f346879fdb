import type { Redis } from 'ioredis';
import type { BucketPolicy, LimitKey, LimitPolicy, LimitStore, PenaltyPolicy } from './limit-store';

/**
 * KEYS buckets; ARGV now, burst, perMinute, cost. `MemoryLimitStore.take`'s arithmetic over every key at once, so
 * instances never both spend the last token; a bucket expires once it would be full again.
 */
const TAKE_SCRIPT = `
local now = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local perMs = tonumber(ARGV[3]) / 60000
local cost = tonumber(ARGV[4])
local need = cost
if need <= 0 then need = 1 end
local levels = {}
local lowest = burst
for i, key in ipairs(KEYS) do
  local tokens = burst
  local stored = redis.call('HMGET', key, 't', 'a')
  if stored[1] then
    tokens = math.min(burst, tonumber(stored[1]) + math.max(0, now - tonumber(stored[2])) * perMs)
  end
  levels[i] = tokens
  if tokens < lowest then lowest = tokens end
end
if lowest + 0.000000001 < need then
  return math.max(1, math.ceil((math.min(need, burst) - lowest) / perMs - 0.000001))
end
if cost > 0 then
  for i, key in ipairs(KEYS) do
    local tokens = levels[i] - cost
    redis.call('HSET', key, 't', tostring(tokens), 'a', tostring(now))
    redis.call('PEXPIRE', key, math.ceil((burst - tokens) / perMs) + 1000)
  end
end
return 0
`;

/** KEYS[1] failures; ARGV now, free, base, max, forget. `blockDelay`'s arithmetic, atomic across instances. */
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

/** The scripts, sent once and then run by their hash (ioredis's `defineCommand`). */
interface LimitScripts {
  vigilLimitTake(keyCount: number, ...args: Array<string | number>): Promise<number>;
  vigilLimitFail(key: string, ...args: Array<string | number>): Promise<number>;
}

/**
 * Counts in Redis, shared by every instance: hashes under `<prefix>:<policy>:<key>` that expire by themselves, each
 * change one Lua script (atomic, so concurrent instances count together).
 */
export class RedisLimitStore implements LimitStore {
  private readonly redis: Redis & LimitScripts;

  constructor(
    redis: Redis,
    /** Key namespace, e.g. `vigil:limit`. */
    private readonly prefix: string,
  ) {
    redis.defineCommand('vigilLimitTake', { lua: TAKE_SCRIPT });
    redis.defineCommand('vigilLimitFail', { numberOfKeys: 1, lua: FAIL_SCRIPT });
    this.redis = redis as Redis & LimitScripts;
  }

  async take(policy: BucketPolicy, keys: LimitKey | readonly LimitKey[], cost: number, now: number): Promise<number> {
    const names = (Array.isArray(keys) ? (keys as readonly LimitKey[]) : [keys as LimitKey]).map((key) => this.key(policy, key));
    return Number(await this.redis.vigilLimitTake(names.length, ...names, now, policy.burst, policy.perMinute, cost));
  }

  async blockedUntil(policy: PenaltyPolicy, key: LimitKey): Promise<number> {
    return Number((await this.redis.hget(this.key(policy, key), 'u')) ?? 0);
  }

  async fail(policy: PenaltyPolicy, key: LimitKey, now: number): Promise<void> {
    const { free, baseMs, maxMs, forgetMs } = policy;
    await this.redis.vigilLimitFail(this.key(policy, key), now, free, baseMs, maxMs, forgetMs);
  }

  async clear(policy: LimitPolicy, key: LimitKey): Promise<void> {
    await this.redis.del(this.key(policy, key));
  }

  private key(policy: LimitPolicy, key: LimitKey): string {
    return `${this.prefix}:${policy.name}:${key}`;
  }
}
