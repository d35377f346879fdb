import { Histogram } from '../common/histogram';
import type { ScheduledMonitor } from './monitor.types';
import type { RecordedResult } from './monitors.repository';

/** How the scheduler is keeping up: check starts, their lateness behind the due time, work in flight. */
export interface SchedulerStats {
  started: number;
  latenessP50Ms: number;
  latenessP99Ms: number;
  latenessMaxMs: number;
  inFlight: number;
  scheduled: number;
  /** Every check's start delay behind its due time (the tick, a free slot, room to store, its previous write), cumulative. */
  slotWait: Histogram;
  /** Time due checks were held back because the write queue was full, since start. */
  heldBackMs: number;
  /** Due checks waiting for a place in their origin's budget (they hold no slot meanwhile). */
  waitingForOrigin: number;
}

/**
 * Runs every active monitor at its interval. Chosen at boot: in this process (a min-heap; REDIS_URL unset) or on
 * BullMQ job schedulers shared by every instance (REDIS_URL set). The monitors service tells it about every change.
 * After each stored result both plan the monitor's next run with `nextRun` (monitor-state.ts), so a retry is enqueued
 * in one place per scheduler, whoever asked for the check.
 */
export abstract class CheckScheduler {
  /** Adds or reschedules a monitor; `checkNow` runs it at once (created, resumed, edited target). */
  abstract schedule(monitor: ScheduledMonitor, options?: { checkNow?: boolean }): Promise<void>;
  /**
   * Checks a monitor now (also a paused one) and answers the stored result; null when the monitor is gone. Never two
   * checks at once for one monitor: asked during a running check, it runs right after it (see MonitorRuns). The next
   * run (retry or regular slot) is then planned as after any scheduled check.
   */
  abstract checkNow(monitor: ScheduledMonitor): Promise<RecordedResult | null>;
  /** Stops checking a monitor (paused or deleted); a check already running still completes. */
  abstract unschedule(id: number): Promise<void>;
  /**
   * A push of a push monitor was stored, dated `at`. The silence verdict due at its next slot cannot find it silent
   * when the push came within the interval before that slot: a scheduler may skip it (the next verdict, a slot later,
   * judges the silence since this push as it would have).
   */
  abstract pushed(monitorId: number, at: Date): void;
  abstract getStats(): SchedulerStats;
}

/** Lateness samples kept for percentiles: the most recent ones, in a ring. */
const LATENESS_SAMPLES = 100_000;

/** Check starts and how late each was behind its due time, for /api/metrics and the benchmarks. */
export class LatenessRing {
  started = 0;
  private readonly samples = new Float64Array(LATENESS_SAMPLES);
  private readonly slotWait = new Histogram();

  record(latenessMs: number): void {
    this.samples[this.started % LATENESS_SAMPLES] = latenessMs;
    this.started += 1;
    this.slotWait.observe(latenessMs);
  }

  stats(inFlight: number, scheduled: number, heldBackMs = 0, waitingForOrigin = 0): SchedulerStats {
    const samples = Array.from(this.samples.subarray(0, Math.min(this.started, LATENESS_SAMPLES))).sort((a, b) => a - b);
    const at = (q: number) => (samples.length ? samples[Math.min(samples.length - 1, Math.floor(q * samples.length))] : 0);
    return {
      started: this.started,
      latenessP50Ms: at(0.5),
      latenessP99Ms: at(0.99),
      latenessMaxMs: samples.length ? samples[samples.length - 1] : 0,
      inFlight,
      scheduled,
      slotWait: this.slotWait,
      heldBackMs,
      waitingForOrigin,
    };
  }
}
