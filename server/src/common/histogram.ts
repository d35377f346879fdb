/** Upper bounds (ms) of the buckets: from a loopback answer to a database a minute behind. */
export const MS_BUCKETS: readonly number[] = [1, 2, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10_000, 30_000, 60_000];

/**
 * Durations in milliseconds, counted in cumulative buckets and rendered in Prometheus' text format (`_bucket{le}`,
 * `_sum`, `_count`). Nothing is ever reset: a scraper or the benchmark subtracts two reads to get any window.
 */
export class Histogram {
  /** Observations per bucket (not cumulative); the last one is above every bound. */
  private readonly counts: number[];
  sum = 0;
  count = 0;

  constructor(readonly bounds: readonly number[] = MS_BUCKETS) {
    this.counts = new Array<number>(bounds.length + 1).fill(0);
  }

  observe(ms: number): void {
    let bucket = 0;
    while (bucket < this.bounds.length && ms > this.bounds[bucket]) bucket += 1;
    this.counts[bucket] += 1;
    this.sum += ms;
    this.count += 1;
  }

  render(name: string): string {
    const lines = [`# TYPE ${name} histogram`];
    let cumulative = 0;
    this.bounds.forEach((bound, bucket) => {
      cumulative += this.counts[bucket];
      lines.push(`${name}_bucket{le="${bound}"} ${cumulative}`);
    });
    lines.push(`${name}_bucket{le="+Inf"} ${this.count}`, `${name}_sum ${Math.round(this.sum)}`, `${name}_count ${this.count}`);
    return lines.join('\n');
  }
}
