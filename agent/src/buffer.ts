/** Reports kept while the server is away: bounded, the oldest dropped first. */
export class ReportBuffer<T> {
  private items: T[] = [];
  dropped = 0;

  constructor(private readonly capacity: number) {}

  get size(): number {
    return this.items.length;
  }

  push(item: T): void {
    this.items.push(item);
    if (this.items.length > this.capacity) {
      this.dropped += this.items.length - this.capacity;
      this.items.splice(0, this.items.length - this.capacity);
    }
  }

  /** The oldest `size` items, still held until `commit` says they were delivered. */
  peek(size: number): T[] {
    return this.items.slice(0, size);
  }

  commit(count: number): void {
    this.items.splice(0, count);
  }
}

/**
 * Delay before reconnect attempt `attempt` (0-based): exponential from `baseMs` up to `maxMs`, with full jitter so a
 * fleet that lost its server together does not come back in lockstep.
 */
export function backoffDelay(attempt: number, baseMs = 1_000, maxMs = 60_000, random = Math.random): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.min(attempt, 30));
  return Math.round(baseMs / 2 + random() * (ceiling - baseMs / 2));
}
