import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config';
import { CheckPipeline, storedFields } from './check-pipeline';
import { CheckResultsWriter } from './check-results.writer';
import { CheckScheduler, LatenessRing, SchedulerStats } from './check-scheduler.service';
import { BudgetGate, CheckSlots } from './check-runs';
import { nextOnRhythm, onGrain, resumeAt, slotGrainMs, spreadOffsetMs } from './monitor-state';
import { MonitorRuns } from './check-runs';
import { nextRun, stateOf } from './monitor-state';
import type { ScheduledMonitor } from './monitor.types';
import { MonitorsRepository, RecordedResult } from './monitors.repository';
import { MinHeap } from './min-heap';

const TICK_MS = 50;

interface Entry {
  monitor: ScheduledMonitor;
  /** When the next check is due (ms since epoch). */
  due: number;
  /** The next time on the monitor's regular rhythm; retries in between do not move it. */
  rhythmAt: number;
  version: number;
  /** Whose budget its checks wait for (CheckPipeline.originOf); null: none. */
  origin: string | null;
}

/** A check that waited its whole timeout for its origin: which, and since when (its stored check's date). */
interface WaitedOut {
  origin: string;
  since: number;
}

/**
 * Runs every active monitor at its interval in this process: min-heaps of due times, a bounded number of checks in
 * flight, results handed to the batch writer. Start times are spread over the interval and kept across restarts.
 */
@Injectable()
export class InProcessCheckScheduler extends CheckScheduler implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(InProcessCheckScheduler.name);
  private readonly entries = new Map<number, Entry>();
  /** Due times, one heap per kind of slot (CheckSlots): a due check waiting for a slot holds back only its kind. */
  private readonly heaps = { network: dueHeap(), batched: dueHeap() };
  /** Every check from its start until its result is written (for shutdown). */
  private readonly inFlight = new Set<Promise<unknown>>();
  /** Each monitor's check until its result is written: never two at once for one monitor. */
  private readonly runs = new MonitorRuns();
  private readonly slots: CheckSlots;
  /** Checks in flight per origin: over its budget a check waits here, holding no slot (BudgetGate). */
  private readonly origins: BudgetGate;
  /** Checks their origin admitted after a wait, first come first, each waiting for a network slot. */
  private readonly admitted: Array<{ due: number; start: () => void }> = [];
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private readonly lateness = new LatenessRing();

  constructor(
    private readonly monitors: MonitorsRepository,
    private readonly checker: CheckPipeline,
    private readonly writer: CheckResultsWriter,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    super();
    this.slots = new CheckSlots(config.monitors.checkConcurrency, () => writer.room);
    this.origins = new BudgetGate(config.monitors.connectionsPerOrigin);
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
    const grain = this.grainOf(monitor);
    let due: number;
    let rhythmAt: number;
    if (options.checkNow) {
      // Checked at once, then on its spread slot, so monitors created or resumed together do not stay bunched.
      due = now;
      rhythmAt = nextOnRhythm(spreadOffsetMs(monitor.id, intervalMs, grain), intervalMs, now);
    } else if (monitor.nextCheckAt) {
      // Resume on the stored rhythm; a slot missed less than an interval ago is checked at once (see resumeAt).
      const resumed = resumeAt(new Date(monitor.nextCheckAt).getTime(), intervalMs, now);
      due = onGrain(resumed.due, grain);
      rhythmAt = onGrain(resumed.rhythmAt, grain);
    } else {
      due = onGrain(now + spreadOffsetMs(monitor.id, intervalMs, grain), grain);
      rhythmAt = due;
    }
    const entry: Entry = { monitor, due, rhythmAt, version: (previous?.version ?? 0) + 1, origin: this.checker.originOf(monitor) };
    this.entries.set(monitor.id, entry);
    this.heapOf(monitor).push({ due, id: monitor.id, version: entry.version });
  }

  async checkNow(monitor: ScheduledMonitor): Promise<RecordedResult | null> {
    return this.runs.after(monitor.id, () => {
      // A paused monitor has no entry: it is checked once and stays unscheduled.
      const now = Date.now();
      const intervalMs = monitor.interval * 1000;
      const entry = this.entries.get(monitor.id) ?? {
        monitor,
        due: now,
        rhythmAt: nextOnRhythm(spreadOffsetMs(monitor.id, intervalMs, this.grainOf(monitor)), intervalMs, now),
        version: 0,
        origin: null,
      };
      return this.track(this.run(entry, true));
    });
  }

  async unschedule(id: number): Promise<void> {
    this.entries.delete(id);
  }

  /**
   * Moves a push monitor's next verdict a slot on when this push falls in the interval before it: that verdict would
   * be dropped by the writer anyway, and at a thousand push monitors it was a scheduled check a second for nothing.
   * Not while a retry is planned (pending: the retry's verdict stands) or a check of it runs.
   */
  pushed(monitorId: number, at: Date): void {
    const entry = this.entries.get(monitorId);
    if (!entry || entry.monitor.type !== 'push' || entry.due !== entry.rhythmAt || this.runs.isRunning(monitorId)) return;
    const intervalMs = entry.monitor.interval * 1000;
    const pushAt = at.getTime();
    if (pushAt <= entry.rhythmAt - intervalMs || pushAt > entry.rhythmAt) return;
    entry.rhythmAt += intervalMs;
    this.requeue(entry, entry.rhythmAt);
  }

  getStats(): SchedulerStats {
    return this.lateness.stats(this.slots.inFlight, this.entries.size, this.slots.heldBackMs(Date.now()), this.origins.waiting);
  }

  private tick(): void {
    const now = Date.now();
    this.origins.expire(now);
    const network = this.startAdmitted(now) && this.startDue(this.heaps.network, false, now);
    const batched = this.startDue(this.heaps.batched, true, now);
    if (network && batched) this.slots.idle(now);
  }

  /** Starts the checks their origin admitted after a wait, before any newly due one; true when none is left waiting. */
  private startAdmitted(now: number): boolean {
    while (this.admitted.length) {
      if (!this.slots.take(now)) return false;
      const next = this.admitted.shift() as { due: number; start: () => void };
      this.lateness.record(now - next.due);
      next.start();
    }
    return true;
  }

  /**
   * Starts the heap's due checks while slots of its kind are free; true when none is left waiting. A check whose
   * origin has its budget in flight waits for it apart (waitForOrigin) and takes no slot meanwhile.
   */
  private startDue(heap: DueHeap, batched: boolean, now: number): boolean {
    while (!this.stopped) {
      const top = heap.peek();
      if (!top || top.due > now) return true;
      const entry = this.entries.get(top.id);
      if (!entry || entry.version !== top.version) {
        heap.pop();
        continue;
      }
      if (this.runs.isRunning(top.id)) {
        // Its previous check is still running or being stored: look again shortly rather than overlap.
        heap.pop();
        heap.push({ ...top, due: now + 1000 });
        continue;
      }
      const waits = entry.origin !== null && !this.origins.hasRoom(entry.origin);
      if (!waits && !this.slots.take(now, batched)) return false;
      heap.pop();
      if (waits) {
        this.runs.join(top.id, () => this.track(this.waitForOrigin(entry, entry.origin as string, now))).catch(() => undefined);
        continue;
      }
      if (entry.origin !== null) this.origins.tryEnter(entry.origin);
      this.lateness.record(now - top.due);
      // Logged in run; the next run is already planned.
      this.runs.join(top.id, () => this.track(this.run(entry, false))).catch(() => undefined);
    }
    return true;
  }

  /**
   * A due check over its origin's budget waits for a place until its own timeout after its due time (as a probe queued
   * for the origin's connections would have), then a network slot; one that waited it out is recorded as timed out.
   */
  private async waitForOrigin(entry: Entry, origin: string, since: number): Promise<RecordedResult | null> {
    const deadline = entry.due + entry.monitor.timeout * 1000;
    if (!(await this.origins.enter(origin, deadline))) {
      if (this.stopped) return null;
      this.lateness.record(Date.now() - entry.due);
      return this.run(entry, false, { origin, since });
    }
    await new Promise<void>((start) => this.admitted.push({ due: entry.due, start }));
    if (!this.stopped) return this.run(entry, false);
    this.origins.leave(origin);
    return null;
  }

  private grainOf(monitor: Pick<ScheduledMonitor, 'type' | 'interval'>): number {
    return slotGrainMs(this.checker.isBatched(monitor.type), monitor.interval * 1000);
  }

  private heapOf(monitor: ScheduledMonitor): DueHeap {
    return this.checker.isBatched(monitor.type) ? this.heaps.batched : this.heaps.network;
  }

  private track<T>(run: Promise<T>): Promise<T> {
    const tracked = run.finally(() => this.inFlight.delete(tracked));
    this.inFlight.add(tracked);
    return tracked;
  }

  private async run(entry: Entry, manual: boolean, waitedOut?: WaitedOut): Promise<RecordedResult | null> {
    const { monitor } = entry;
    const intervalMs = monitor.interval * 1000;
    const now = Date.now();
    // A scheduled check carries its slot (dropped if the monitor was paused meanwhile); a manual one is always stored.
    const slotAt = manual ? null : new Date(entry.due);
    // A slot already due is covered by this check; a manual check does not otherwise move the rhythm.
    if (entry.rhythmAt <= now) entry.rhythmAt = nextOnRhythm(entry.rhythmAt, intervalMs, now);
    try {
      // A scheduled check holds its slot and its origin's place (taken in tick) for the network work only; a manual
      // one, asked for by a person, takes neither.
      const batched = this.checker.isBatched(monitor.type);
      const result = waitedOut
        ? this.checker.waitedOut(monitor, waitedOut.origin, new Date(waitedOut.since), this.origins.inFlight(waitedOut.origin))
        : await this.checker.check(monitor).finally(() => {
            if (manual) return;
            this.slots.release(batched);
            if (entry.origin !== null) this.origins.leave(entry.origin);
          });
      // Null when nothing was stored (a push monitor's "no push" verdict after a push came, or a monitor gone): the
      // rhythm goes on.
      const recorded = await this.writer.record(
        { monitorId: monitor.id, ...storedFields(result), rhythmNext: new Date(entry.rhythmAt), slotAt },
        { immediately: manual },
      );
      // Deleted, paused or re-scheduled while the check ran: the newer entry decides.
      if (this.entries.get(monitor.id) === entry) {
        const next = recorded ? nextRun(stateOf(recorded.monitor), entry.rhythmAt).at : entry.rhythmAt;
        // Due at its slot even when that passed while the result waited for the write: it starts at once, and its
        // lateness counts that wait.
        this.requeue(entry, next);
      }
      return recorded;
    } catch (error) {
      this.logger.error({
        message: `Check of monitor ${monitor.id} could not be stored: ${(error as Error).message}`,
        monitorId: monitor.id,
      });
      if (this.entries.get(monitor.id) === entry) this.requeue(entry, entry.rhythmAt);
      throw error;
    }
  }

  private requeue(entry: Entry, due: number): void {
    entry.due = due;
    entry.version += 1;
    this.heapOf(entry.monitor).push({ due, id: entry.monitor.id, version: entry.version });
  }

  async onModuleDestroy(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    // Checks still waiting for their origin or a slot end unrecorded.
    this.origins.close();
    for (const waiting of this.admitted.splice(0)) waiting.start();
    await Promise.allSettled([...this.inFlight]);
  }
}

type DueHeap = MinHeap<{ due: number; id: number; version: number }>;

function dueHeap(): DueHeap {
  return new MinHeap((a, b) => a.due - b.due);
}
