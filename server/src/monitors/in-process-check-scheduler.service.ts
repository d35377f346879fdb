import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config';
import { CheckResultsWriter } from './check-results.writer';
import { CheckScheduler, LatenessRing, SchedulerStats } from './check-scheduler.service';
import { CheckSlots } from './check-slots';
import { nextOnRhythm, spreadOffsetMs } from './check-rules';
import { HttpChecker } from './http-checker';
import type { ScheduledMonitor } from './monitor.types';
import { MonitorsRepository } from './monitors.repository';
import { MinHeap } from './min-heap';

const TICK_MS = 50;

interface Entry {
  monitor: ScheduledMonitor;
  /** When the next check is due (ms since epoch). */
  due: number;
  /** The next time on the monitor's regular rhythm; retries in between do not move it. */
  rhythmAt: number;
  version: number;
}

/**
 * Runs every active monitor at its interval in this process: a min-heap of due times, a bounded number of checks in
 * flight, results handed to the batch writer. A check's slot covers its network work only; the monitor's next check
 * waits until its result is written, which decides its status and next time. Start times are spread over the
 * interval and kept across restarts.
 */
@Injectable()
export class InProcessCheckScheduler extends CheckScheduler implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(InProcessCheckScheduler.name);
  private readonly entries = new Map<number, Entry>();
  private readonly heap = new MinHeap<{ due: number; id: number; version: number }>((a, b) => a.due - b.due);
  /** Every check from its start until its result is written (for shutdown). */
  private readonly runs = new Set<Promise<void>>();
  private readonly slots: CheckSlots;
  /** Monitors whose check runs or whose result is not written yet: never two at once for one monitor. */
  private readonly running = new Set<number>();
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private readonly lateness = new LatenessRing();

  constructor(
    private readonly monitors: MonitorsRepository,
    private readonly checker: HttpChecker,
    private readonly writer: CheckResultsWriter,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    super();
    this.slots = new CheckSlots(config.monitors.checkConcurrency, () => writer.room);
  }

  async onApplicationBootstrap(): Promise<void> {
    const active = await this.monitors.loadActive();
    for (const monitor of active) this.add(monitor);
    this.timer = setInterval(() => this.tick(), TICK_MS);
    this.timer.unref();
    this.logger.log(`Scheduling ${active.length} active monitors`);
  }

  async schedule(monitor: ScheduledMonitor, options: { checkNow?: boolean } = {}): Promise<void> {
    this.add(monitor, options);
  }

  private add(monitor: ScheduledMonitor, options: { checkNow?: boolean } = {}): void {
    const now = Date.now();
    const intervalMs = monitor.interval * 1000;
    const previous = this.entries.get(monitor.id);
    let due: number;
    let rhythmAt: number;
    if (options.checkNow) {
      // Checked at once, then on its spread slot, so monitors created or resumed together do not stay bunched.
      due = now;
      rhythmAt = nextOnRhythm(spreadOffsetMs(monitor.id, intervalMs), intervalMs, now);
    } else if (monitor.nextCheckAt) {
      // Resume on the stored rhythm: a time missed while the server was down moves to its next slot, not to now.
      const stored = new Date(monitor.nextCheckAt).getTime();
      due = stored >= now ? stored : nextOnRhythm(stored, intervalMs, now);
      rhythmAt = due;
    } else {
      due = now + spreadOffsetMs(monitor.id, intervalMs);
      rhythmAt = due;
    }
    const entry: Entry = { monitor, due, rhythmAt, version: (previous?.version ?? 0) + 1 };
    this.entries.set(monitor.id, entry);
    this.heap.push({ due, id: monitor.id, version: entry.version });
  }

  async unschedule(id: number): Promise<void> {
    this.entries.delete(id);
  }

  getStats(): SchedulerStats {
    return this.lateness.stats(this.slots.inFlight, this.entries.size, this.slots.heldBackMs(Date.now()));
  }

  private tick(): void {
    const now = Date.now();
    while (!this.stopped) {
      const top = this.heap.peek();
      if (!top || top.due > now) {
        this.slots.idle(now);
        return;
      }
      const entry = this.entries.get(top.id);
      if (!entry || entry.version !== top.version) {
        this.heap.pop();
        continue;
      }
      if (this.running.has(top.id)) {
        // Its previous check is still running or being stored: look again shortly rather than overlap.
        this.heap.pop();
        this.heap.push({ ...top, due: now + 1000 });
        continue;
      }
      if (!this.slots.take(now)) return;
      this.heap.pop();
      this.lateness.record(now - top.due);
      const run = this.run(entry).finally(() => this.runs.delete(run));
      this.runs.add(run);
    }
  }

  private async run(entry: Entry): Promise<void> {
    this.running.add(entry.monitor.id);
    const { monitor } = entry;
    const intervalMs = monitor.interval * 1000;
    const now = Date.now();
    if (entry.rhythmAt <= now) entry.rhythmAt = nextOnRhythm(entry.rhythmAt, intervalMs, now);
    try {
      const result = await this.checker.check(monitor).finally(() => this.slots.release());
      const recorded = await this.writer.record({ monitorId: monitor.id, ...result, rhythmNext: new Date(entry.rhythmAt) });
      const current = this.entries.get(monitor.id);
      // Deleted, paused or re-scheduled while the check ran: the newer entry decides.
      if (!recorded || current !== entry) return;
      const next = recorded.monitor.next_check_at ? new Date(recorded.monitor.next_check_at).getTime() : entry.rhythmAt;
      // Due at its slot even when that has passed while the result waited for the write: it starts at once, and
      // its lateness counts that wait.
      this.requeue(entry, next);
    } catch (error) {
      this.logger.error(`Check of monitor ${monitor.id} could not be stored: ${(error as Error).message}`);
      if (this.entries.get(monitor.id) === entry) this.requeue(entry, entry.rhythmAt);
    } finally {
      this.running.delete(monitor.id);
    }
  }

  private requeue(entry: Entry, due: number): void {
    entry.due = due;
    entry.version += 1;
    this.heap.push({ due, id: entry.monitor.id, version: entry.version });
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await Promise.allSettled([...this.runs]);
  }
}
