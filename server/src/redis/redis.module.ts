import { Global, Inject, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config';

/** The shared Redis of a scale-out installation; null when REDIS_URL is unset (one process, nothing shared). */
export const REDIS = Symbol('REDIS');

export interface RedisHandle {
  /** Key namespace for everything Vigil writes (BullMQ prefix, socket.io channel). */
  prefix: string;
  /**
   * A new connection (BullMQ workers and the socket.io subscriber each need their own). `failFast` connections give
   * up a command after a few reconnect attempts instead of waiting for Redis to come back (API-driven writes).
   */
  connect(options?: { failFast?: boolean }): Redis;
  /** Every connection made through `connect`, closed at shutdown. */
  close(): Promise<void>;
}

const READY_TIMEOUT_MS = 10_000;

/** Where the Redis is, without user or password, for log lines. */
export function redisAddress(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port || 6379}`;
}

export async function openRedis(url: string, prefix: string): Promise<RedisHandle> {
  const logger = new Logger('Redis');
  const connections: Redis[] = [];
  const connect = ({ failFast = false } = {}) => {
    // BullMQ's blocking commands need maxRetriesPerRequest null: a command waits for a reconnect instead of failing.
    const connection = new Redis(url, { maxRetriesPerRequest: failFast ? 2 : null, enableReadyCheck: true });
    let reported = false;
    connection.on('error', (error: Error) => {
      if (reported) return;
      reported = true;
      logger.error(`Redis at ${redisAddress(url)}: ${error.message}`);
    });
    connection.on('ready', () => (reported = false));
    connections.push(connection);
    return connection;
  };
  const probe = connect();
  const timer = new Promise<never>((_, reject) =>
    setTimeout(
      () => reject(new Error(`Redis at ${redisAddress(url)} did not answer within ${READY_TIMEOUT_MS / 1000} s`)),
      READY_TIMEOUT_MS,
    ).unref(),
  );
  try {
    await Promise.race([probe.ping(), timer]);
  } catch (error) {
    probe.disconnect();
    throw error;
  }
  return {
    prefix,
    connect,
    async close() {
      await Promise.allSettled(connections.map((c) => c.quit()));
    },
  };
}

@Global()
@Module({
  providers: [
    {
      provide: REDIS,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => (config.redisUrl ? openRedis(config.redisUrl, config.redisPrefix) : null),
    },
  ],
  exports: [REDIS],
})
export class RedisModule implements OnApplicationShutdown {
  constructor(@Inject(REDIS) private readonly redis: RedisHandle | null) {}

  async onApplicationShutdown(): Promise<void> {
    await this.redis?.close();
  }
}
