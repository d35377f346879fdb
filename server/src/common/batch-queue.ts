export interface BatchQueueOptions {
  everyMs: number;
  maxBatch: number;
  /**
   * Items waiting at most (queued or in the batch being stored); a push beyond it waits until stored batches make
   * room, so producers slow down to the database's pace instead of filling memory. Unbounded when absent.
   */
  capacity?: number;
}

/**
 * Collects items and hands them to `store` in batches: after `everyMs`, or at once when `maxBatch` are waiting.
 * One batch at a time, in order; `drain` stores what is left (for shutdown).
 */
export class BatchQueue<T> {
  private queue: T[] = [];
  /** Items of the batch being stored. */
  private storing = 0;
  /** Pushes waiting for room, in arrival order. */
  private readonly parked: Array<{ item: T; immediately: boolean; accept: () => void }> = [];
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();
  private readonly capacity: number;

  constructor(
    private readonly options: BatchQueueOptions,
    private readonly store: (batch: T[]) => Promise<void>,
  ) {
    this.capacity = options.capacity ?? Infinity;
  }

  /** Items not stored yet: queued, in the batch being stored, or waiting for room. */
  get waiting(): number {
    return this.queue.length + this.storing + this.parked.length;
  }

  /** Pushes that would still be taken at once. */
  get room(): number {
    return Math.max(0, this.capacity - this.waiting);
  }

  /** Queues the item: at once while there is room (the promise is already settled), otherwise once there is, in order. */
  push(item: T, { immediately = false } = {}): Promise<void> {
    if (this.parked.length || this.waiting >= this.capacity) {
      return new Promise((accept) => this.parked.push({ item, immediately, accept }));
    }
    this.enqueue(item, immediately);
    return Promise.resolve();
  }

  async drain(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    await this.flushing;
    while (this.queue.length) await this.flush();
  }

  private enqueue(item: T, immediately: boolean): void {
    this.queue.push(item);
    this.flushSoon(immediately || this.queue.length >= this.options.maxBatch ? 0 : this.options.everyMs);
  }

  private flushSoon(delay: number): void {
    if (this.timer && delay > 0) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flushing = this.flushing.then(() => this.flush());
    }, delay);
  }

  /**
   * Stores what was queued when it began. What arrives meanwhile waits for its own timer (or goes at once when a full
   * batch gathers): taking it along would, under a steady stream, store a straggler batch of the few results that came
   * in while the last one was written, doubling the transactions.
   */
  private async flush(): Promise<void> {
    let due = this.queue.length;
    while (due > 0) {
      const batch = this.queue.splice(0, Math.min(due, this.options.maxBatch));
      due -= batch.length;
      this.storing = batch.length;
      try {
        await this.store(batch);
      } finally {
        this.storing = 0;
        this.admitParked();
      }
    }
  }

  private admitParked(): void {
    while (this.parked.length && this.queue.length + this.storing < this.capacity) {
      const { item, immediately, accept } = this.parked.shift()!;
      this.enqueue(item, immediately);
      accept();
    }
  }
}

/** A row of a batch the database refused, left out so the rest of its batch could be stored. */
export interface RefusedItem<T> {
  item: T;
  error: unknown;
}

/**
 * SQLSTATE classes that blame the statement's data rather than the database: data exceptions (a value out of range,
 * bad text), integrity violations, program limits, and exceptions raised by a trigger or function. Anything else
 * (a lost connection, a database shutting down, a serialization failure) would fail every row alike.
 */
const ROW_FAULT_CLASSES = new Set(['22', '23', '54', 'P0']);

export function isRowFault(error: unknown): boolean {
  const { code, driverError } = (error ?? {}) as { code?: unknown; driverError?: { code?: unknown } };
  const sqlState = typeof code === 'string' ? code : driverError?.code;
  return typeof sqlState === 'string' && sqlState.length === 5 && ROW_FAULT_CLASSES.has(sqlState.slice(0, 2));
}

/**
 * Stores a batch in one call when it can (the fast path). When the database refuses it for a row's data, the batch
 * is halved until each bad row stands alone: every other row is stored, and the refused ones are returned (one bad
 * row among n costs about 2·log2(n) extra statements). Any other failure is thrown, as it says nothing about a row.
 */
export async function storeIsolating<T>(batch: T[], store: (part: T[]) => Promise<void>): Promise<Array<RefusedItem<T>>> {
  if (!batch.length) return [];
  try {
    await store(batch);
    return [];
  } catch (error) {
    if (!isRowFault(error)) throw error;
    if (batch.length === 1) return [{ item: batch[0], error }];
    const middle = Math.ceil(batch.length / 2);
    const left = await storeIsolating(batch.slice(0, middle), store);
    return [...left, ...(await storeIsolating(batch.slice(middle), store))];
  }
}

/** A refused row's log text: the SQLSTATE and the database's sentence, cut short (the row itself is never logged). */
export function faultText(error: unknown): string {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return `${typeof code === 'string' ? `${code} ` : ''}${typeof message === 'string' ? message.slice(0, 200) : 'unknown error'}`;
}
