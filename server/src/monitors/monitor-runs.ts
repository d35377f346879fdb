import type { RecordedResult } from './monitors.repository';

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
