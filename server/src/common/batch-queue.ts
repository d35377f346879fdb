/**
 * Collects items and hands them to `store` in batches: after `everyMs`, or at once when `maxBatch` are waiting.
 * One batch at a time, in order; `drain` stores what is left (for shutdown).
 */
export class BatchQueue<T> {
  private queue: T[] = [];
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly options: { everyMs: number; maxBatch: number },
    private readonly store: (batch: T[]) => Promise<void>,
  ) {}

  push(item: T, { immediately = false } = {}): void {
    this.queue.push(item);
    this.flushSoon(immediately || this.queue.length >= this.options.maxBatch ? 0 : this.options.everyMs);
  }

  async drain(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    await this.flushing;
    if (this.queue.length) await this.flush();
  }

  private flushSoon(delay: number): void {
    if (this.timer && delay > 0) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flushing = this.flushing.then(() => this.flush());
    }, delay);
  }

  private async flush(): Promise<void> {
    while (this.queue.length) await this.store(this.queue.splice(0, this.options.maxBatch));
  }
}
