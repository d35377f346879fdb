import type { RecordedResult } from './monitors.repository';

/**
 * Checks of a batched type (ping) in flight at most per CHECK_CONCURRENCY slot: they wait on a process the checker
 * shares among many of them (fping, at most 250 addresses each), so they hold no network slot; this bounds them too.
 */
export const BATCHED_PER_SLOT = 8;

/**
 * The scheduler's accounting of checks in flight. A check holds one of `CHECK_CONCURRENCY` slots for its network work
 * only; its result then waits for its batch in the writer's bounded queue. A check starts only while that queue has a
 * place for its result as well as for those of every check already in flight, so when the database falls behind,
 * starts stop (and the time they were held back is counted) instead of results piling up in memory. Checks of a
 * batched type count apart (BATCHED_PER_SLOT): a burst of ping checks, each waiting seconds for its echo replies,
 * must not take every slot from the other types.
 */
export class CheckSlots {
  private taken = 0;
  private batchedTaken = 0;
  private heldSince: number | null = null;
  private heldMs = 0;

  constructor(
    private readonly concurrency: number,
    /** Results the write queue would still take at once. */
    private readonly writeRoom: () => number,
  ) {}

  get inFlight(): number {
    return this.taken + this.batchedTaken;
  }

  /** Takes a slot for a check due now; false when every slot is taken or the write queue has no place to spare. */
  take(now: number, batched = false): boolean {
    if (batched ? this.batchedTaken >= this.concurrency * BATCHED_PER_SLOT : this.taken >= this.concurrency) return false;
    if (this.inFlight >= this.writeRoom()) {
      this.heldSince ??= now;
      return false;
    }
    this.endHold(now);
    if (batched) this.batchedTaken += 1;
    else this.taken += 1;
    return true;
  }

  /** The check's network work is over (its result is handed to the writer). */
  release(batched = false): void {
    if (batched) this.batchedTaken -= 1;
    else this.taken -= 1;
  }

  /** Nothing is due: nothing is being held back. */
  idle(now: number): void {
    this.endHold(now);
  }

  /** Time due checks waited for room in the write queue, since start. */
  heldBackMs(now: number): number {
    return this.heldMs + (this.heldSince === null ? 0 : now - this.heldSince);
  }

  private endHold(now: number): void {
    if (this.heldSince === null) return;
    this.heldMs += now - this.heldSince;
    this.heldSince = null;
  }
}

type Run = Promise<RecordedResult | null>;

/**
 * Never two checks of one monitor at once, in one scheduler: two overlapping checks would race to decide its
 * transition. A scheduled check due while one runs is covered by it (`join`); a manual check asked meanwhile runs
 * right after it, so the answer is a check that started after the ask, and every ask in between shares that one
 * (`after`).
 */
export class MonitorRuns {
  private readonly running = new Map<number, Run>();
  private readonly waiting = new Map<number, Run>();

  isRunning(id: number): boolean {
    return this.running.has(id);
  }

  /** Starts `check` unless one of the monitor is running, whose result then answers. */
  join(id: number, check: () => Run): Run {
    const running = this.running.get(id);
    if (running) return running;
    const run = check().finally(() => {
      if (this.running.get(id) === run) this.running.delete(id);
    });
    this.running.set(id, run);
    return run;
  }

  /** Starts `check` once the running check of the monitor (if any) has ended; asks until then share it. */
  after(id: number, check: () => Run): Run {
    const waiting = this.waiting.get(id);
    if (waiting) return waiting;
    const running = this.running.get(id);
    if (!running) return this.join(id, check);
    const next = running
      .catch(() => null)
      .then(() => {
        this.waiting.delete(id);
        return this.join(id, check);
      });
    this.waiting.set(id, next);
    return next;
  }
}
