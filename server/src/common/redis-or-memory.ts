import { Logger } from '@nestjs/common';

/**
 * A store kept in Redis, so every instance counts the same, that falls back to this process's memory while Redis
 * fails (the limit then holds per instance), saying so once each way.
 */
export class RedisOrMemory<S> {
  private redisFailed = false;

  constructor(
    /** What the store holds, for the log lines (`Login limits`). */
    private readonly what: string,
    private readonly logger: Logger,
    private readonly memory: S,
    private readonly shared: S | null,
  ) {}

  async use<T>(work: (store: S) => Promise<T>): Promise<T> {
    if (!this.shared) return work(this.memory);
    try {
      const result = await work(this.shared);
      if (this.redisFailed) this.logger.log(`${this.what} are shared through Redis again`);
      this.redisFailed = false;
      return result;
    } catch (error) {
      if (!this.redisFailed) this.logger.warn(`${this.what} fall back to this instance's memory: ${(error as Error).message}`);
      this.redisFailed = true;
      return work(this.memory);
    }
  }
}
