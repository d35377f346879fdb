/**
 * Answers kept for a while in this process, keyed by text, with one load in flight per key: checks of the same key
 * that start while it loads share its answer (or its failure). A failed load is not kept, so the next check tries
 * again. Not shared between instances: each keeps its own (documented in the domain checker).
 */
export class DailyCache<T> {
  private readonly entries = new Map<string, { value: T; until: number }>();
  private readonly loading = new Map<string, Promise<T>>();

  constructor(
    private readonly ttlMs: number,
    /** Entries kept at most; beyond it the oldest go first (a bound on memory, whatever the monitors ask for). */
    private readonly capacity: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** The kept answer for `key`, or the one `load` gives (shared with concurrent callers). */
  get(key: string, load: () => Promise<T>): Promise<T> {
    const kept = this.entries.get(key);
    if (kept && kept.until > this.now()) return Promise.resolve(kept.value);
    const pending = this.loading.get(key);
    if (pending) return pending;
    const loaded = load()
      .then((value) => {
        this.keep(key, value);
        return value;
      })
      .finally(() => this.loading.delete(key));
    this.loading.set(key, loaded);
    return loaded;
  }

  private keep(key: string, value: T): void {
    this.entries.delete(key);
    if (this.entries.size >= this.capacity) {
      const now = this.now();
      for (const [old, entry] of this.entries) if (entry.until <= now) this.entries.delete(old);
      // Still full: drop the oldest (a Map iterates in insertion order).
      if (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value as string);
    }
    this.entries.set(key, { value, until: this.now() + this.ttlMs });
  }
}
