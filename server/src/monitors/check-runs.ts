import { MinHeap } from './min-heap';
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

interface Waiter {
  key: string;
  /** When it gives up (ms, the caller's clock); Infinity: never. */
  deadline: number;
  settled: boolean;
  resolve: (admitted: boolean) => void;
}

/**
 * A budget of places per key, with a first-come queue per key. Used per origin (host:port): checks of one origin hold
 * at most `budget` places, and the ones over it wait here without holding a network slot, so a stalled or black-holed
 * origin waits on its own budget and never on the slots other origins need. A waiter gives up at its deadline
 * (`expire`, called on the scheduler's clock, so specs drive it by hand): the check is then recorded as timed out.
 * The queue scheduler also uses one key as its network slots.
 */
export class BudgetGate {
  private readonly taken = new Map<string, number>();
  private readonly queues = new Map<string, Waiter[]>();
  private readonly deadlines = new MinHeap<Waiter>((a, b) => a.deadline - b.deadline);
  private waitingCount = 0;

  constructor(readonly budget: number) {}

  /** Waiters, every key together. */
  get waiting(): number {
    return this.waitingCount;
  }

  inFlight(key: string): number {
    return this.taken.get(key) ?? 0;
  }

  /** Whether a place is free now and nobody waits for one (waiters go first). */
  hasRoom(key: string): boolean {
    return this.inFlight(key) < this.budget && !this.queues.get(key)?.length;
  }

  /** Takes a place now; false (and nothing taken) when there is none. */
  tryEnter(key: string): boolean {
    if (!this.hasRoom(key)) return false;
    this.taken.set(key, this.inFlight(key) + 1);
    return true;
  }

  /** Resolves true once a place is taken (in order of asking), false when `deadline` passed first. */
  enter(key: string, deadline: number): Promise<boolean> {
    if (this.tryEnter(key)) return Promise.resolve(true);
    return new Promise((resolve) => {
      const waiter: Waiter = { key, deadline, settled: false, resolve };
      const queue = this.queues.get(key);
      if (queue) queue.push(waiter);
      else this.queues.set(key, [waiter]);
      if (deadline !== Infinity) this.deadlines.push(waiter);
      this.waitingCount += 1;
    });
  }

  /** Gives a place back; the first waiter of the key takes it. */
  leave(key: string): void {
    const queue = this.queues.get(key);
    while (queue?.length) {
      const next = queue.shift() as Waiter;
      if (next.settled) continue;
      if (!queue.length) this.queues.delete(key);
      this.settle(next, true);
      return;
    }
    this.queues.delete(key);
    const left = this.inFlight(key) - 1;
    if (left > 0) this.taken.set(key, left);
    else this.taken.delete(key);
  }

  /** Waiters whose deadline is `now` or past give up (resolve false). */
  expire(now: number): void {
    for (let top = this.deadlines.peek(); top && top.deadline <= now; top = this.deadlines.peek()) {
      this.deadlines.pop();
      if (!top.settled) this.settle(top, false);
    }
  }

  /** Every waiter gives up (shutdown). */
  close(): void {
    for (const queue of this.queues.values()) for (const waiter of queue) if (!waiter.settled) this.settle(waiter, false);
    this.queues.clear();
  }

  private settle(waiter: Waiter, admitted: boolean): void {
    waiter.settled = true;
    this.waitingCount -= 1;
    waiter.resolve(admitted);
  }
}
