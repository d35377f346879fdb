import Redis from 'ioredis';

/** One test file's own key space on the local Redis (CI runs one at 127.0.0.1:6379). */
export interface TestRedis {
  url: string;
  /** REDIS_PREFIX for the servers: unique per run, so parallel runs and leftovers never meet. */
  prefix: string;
  /** Keys currently under the prefix. */
  keys(): Promise<string[]>;
  /** Deletes every key under the prefix and disconnects. */
  cleanup(): Promise<void>;
}

/** Fails, never skips, when Redis does not answer: the scale-out tests need it. */
export async function useTestRedis(): Promise<TestRedis> {
  const url = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const client = new Redis(url, { lazyConnect: true, connectTimeout: 3000, maxRetriesPerRequest: 1, retryStrategy: () => null });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.ping();
  } catch (error) {
    client.disconnect();
    throw new Error(
      `Redis at ${new URL(url).host} is unreachable (${(error as Error).message}); the scale-out e2e needs it (TEST_REDIS_URL)`,
      { cause: error },
    );
  }
  const prefix = `vigil-test-${process.pid}-${Date.now().toString(36)}`;
  const keys = async () => {
    const found: string[] = [];
    let cursor = '0';
    do {
      const [next, batch] = await client.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      found.push(...batch);
      cursor = next;
    } while (cursor !== '0');
    return found;
  };
  return {
    url,
    prefix,
    keys,
    async cleanup() {
      const found = await keys();
      for (let i = 0; i < found.length; i += 500) await client.del(...found.slice(i, i + 500));
      client.disconnect();
    },
  };
}
