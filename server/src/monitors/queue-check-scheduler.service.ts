import { Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { Job, Queue, Worker } from 'bullmq';
import type { AppConfig } from '../config/config';
import type { RedisHandle } from '../redis/redis.module';
import { CheckPipeline, storedFields, type CheckVerdict } from './check-pipeline';
import { CheckResultsWriter } from './check-results.writer';
import { nextOnRhythm, slotGrainMs, spreadOffsetMs } from './monitor-state';
import { CheckScheduler, LatenessRing, SchedulerStats } from './check-scheduler.service';
import { BudgetGate, MonitorRuns } from './check-runs';
import { nextRun, stateOf } from './monitor-state';
import type { MonitorTarget, ScheduledMonitor } from './monitor.types';
import { MonitorsRepository, RecordedResult } from './monitors.repository';

const QUEUE = 'checks';
/**
 * A dead instance's in-flight checks are re-run once their lock expires, found by the next stalled sweep: with these
 * two settings within about 12–17 s, leaving 3 s of the promised 20 s for a loaded survivor to pick the job up and
 * send the request (BullMQ's defaults, 30 s / 30 s, took 60 s in the design spike; a 15 s lock left no margin). The
 * lock is renewed every lockDuration / 2 while a check runs, so a live but slow check never loses it.
 */
export const LOCK_DURATION_MS = 12_000;
export const STALLED_INTERVAL_MS = 5_000;
/** Schedulers are compared with the database this often (and at every start), repairing any drift. */
const RECONCILE_EVERY_MS = 10 * 60_000;
const RECONCILE_LOCK_MS = 5 * 60_000;
const PAGE = 1000;
const PARALLEL_WRITES = 64;
/**
 * Jobs a worker may hold waiting for their origin's budget, per CHECK_CONCURRENCY slot: they hold no slot (the
 * worker's concurrency grows by them), and beyond this many, due jobs wait in Redis as before.
 */
const ORIGIN_WAITING_PER_SLOT = 16;
const EXPIRE_EVERY_MS = 100;

/** What a queued check carries: the target as it was when its scheduler was written, so no database read per check. */
interface CheckJobData {
  monitor: JobTarget;
  /** Due time of a one-off check (`now`, `retry`); scheduler jobs carry theirs in their id. */
  slotAt?: number;
}

type JobTarget = MonitorTarget & { interval: number; retryInterval: number };
type CheckJob = Job<CheckJobData>;

const schedulerId = (monitorId: number) => `monitor:${monitorId}`;

/** The job carries the monitor's check target (its type's settings) and rhythm, not its state. */
function jobData(monitor: ScheduledMonitor): CheckJobData {
  const { nextCheckAt: _next, status: _status, ...target } = monitor;
  return { monitor: target };
}

/**
 * A job's target as this version reads it. Legacy (before monitor types): jobs written by an older server carry an
 * http target without `type`, `assertions`, `ignoreTls` and `maxRedirects`; they run as the http checks they were
 * until the reconcile at start rewrites their schedulers.
 */
function currentTarget(target: JobTarget): JobTarget {
  if ((target as { type?: string }).type !== undefined) return target;
  return { ...target, type: 'http', assertions: [], ignoreTls: false, maxRedirects: 5 } as JobTarget;
}

/** The time a job was due: scheduler jobs are named `repeat:<scheduler>:<millis>` by BullMQ. */
function slotOf(job: CheckJob): number {
  if (job.data.slotAt !== undefined) return job.data.slotAt;
  const millis = Number(job.id?.split(':').pop());
  return Number.isFinite(millis) ? millis : job.timestamp + (job.opts.delay ?? 0);
}

/**
 * Checks on BullMQ, shared by every instance on one Redis (REDIS_URL set). Each active monitor has one job scheduler
 * (`every` = its interval, `offset` spreading monitors over it); every instance runs a worker, so whichever is free
 * takes the next due check. Results go through the same batch writer, whose conditional update decides transitions
 * once; a re-run of a dead instance's job is dropped there (`slotAt`).
 */
export class QueueCheckScheduler extends CheckScheduler implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(QueueCheckScheduler.name);
  private readonly queue: Queue<CheckJobData>;
  /** Commands of our own (the reconcile lock); BullMQ shares it with the queue. */
  private readonly connection: ReturnType<RedisHandle['connect']>;
  private worker: Worker<CheckJobData> | null = null;
  private readonly lateness = new LatenessRing();
  private inFlight = 0;
  private scheduled = 0;
  private timers: NodeJS.Timeout[] = [];
  /** One check of a monitor at a time on this instance; across instances the state machine keeps them in order. */
  private readonly runs = new MonitorRuns();
  /** Checks in flight per origin on this instance; over the budget a job waits here (see BudgetGate). */
  private readonly origins: BudgetGate;
  private waitingForOrigin = 0;
  private closing = false;

  constructor(
    private readonly redis: RedisHandle,
    private readonly monitors: MonitorsRepository,
    private readonly checker: CheckPipeline,
    private readonly writer: CheckResultsWriter,
    private readonly config: AppConfig,
  ) {
    super();
    this.connection = redis.connect({ failFast: true });
    this.queue = new Queue<CheckJobData>(QUEUE, { connection: this.connection, prefix: redis.prefix });
    this.queue.on('error', (error) => this.logger.error(`Check queue: ${error.message}`));
    this.origins = new BudgetGate(config.monitors.connectionsPerOrigin);
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.reconcile();
    this.worker = new Worker<CheckJobData>(QUEUE, (job) => this.run(job), {
      connection: this.redis.connect(),
      prefix: this.redis.prefix,
      concurrency: this.config.monitors.checkConcurrency,
      lockDuration: LOCK_DURATION_MS,
      stalledInterval: STALLED_INTERVAL_MS,
      // A job whose instance died twice in a row is given up; its monitor's next slot comes anyway.
      maxStalledCount: 2,
    });
    this.worker.on('error', (error) => this.logger.error(`Check worker: ${error.message}`));
    const reconcile = setInterval(() => void this.reconcile(), RECONCILE_EVERY_MS);
    const count = setInterval(() => void this.countSchedulers(), 30_000);
    const expire = setInterval(() => this.origins.expire(Date.now()), EXPIRE_EVERY_MS);
    this.timers = [reconcile, count, expire];
    for (const timer of this.timers) timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    for (const timer of this.timers) clearInterval(timer);
    // Jobs still waiting for their origin end unrecorded; their monitors' next slots come anyway.
    this.closing = true;
    this.origins.close();
    // Lets the checks in flight finish (their results are written before the writer drains), takes no new ones.
    await this.worker?.close();
    await this.queue.close();
  }

  async schedule(monitor: ScheduledMonitor, options: { checkNow?: boolean } = {}): Promise<void> {
    await this.orLater(monitor.id, async () => {
      await this.upsert(monitor);
      if (options.checkNow) await this.addOnce(jobData(monitor).monitor, 'now', Date.now());
    });
  }

  async checkNow(monitor: ScheduledMonitor): Promise<RecordedResult | null> {
    const target = jobData(monitor).monitor;
    return this.runs.after(monitor.id, () => this.check(target, null));
  }

  async unschedule(id: number): Promise<void> {
    await this.orLater(id, () => this.queue.removeJobScheduler(schedulerId(id)));
  }

  /** The job scheduler's next job cannot be skipped without a Redis write per push; its verdict is dropped when stored. */
  pushed(): void {}

  /**
   * The monitor's change is already saved; with Redis away its scheduler is repaired by the next reconcile rather than
   * failing the request (a deleted or paused monitor's stray check is dropped when stored).
   */
  private async orLater(monitorId: number, write: () => Promise<unknown>): Promise<void> {
    try {
      await write();
    } catch (error) {
      this.logger.warn({
        message: `Scheduler of monitor ${monitorId} not updated (${(error as Error).message}); the next reconcile repairs it`,
        monitorId,
      });
    }
  }

  getStats(): SchedulerStats {
    return this.lateness.stats(this.inFlight, this.scheduled, 0, this.origins.waiting);
  }

  private grainOf(monitor: Pick<ScheduledMonitor, 'type' | 'interval'>): number {
    return slotGrainMs(this.checker.isBatched(monitor.type), monitor.interval * 1000);
  }

  private upsert(monitor: ScheduledMonitor) {
    const every = monitor.interval * 1000;
    // BullMQ runs an `every` scheduler without an offset at once; 0 would mean that, so the earliest slot is 1 ms.
    const offset = Math.max(1, spreadOffsetMs(monitor.id, every, this.grainOf(monitor)));
    return this.queue.upsertJobScheduler(
      schedulerId(monitor.id),
      { every, offset },
      { name: 'check', data: jobData(monitor), opts: { removeOnComplete: true, removeOnFail: 1000 } },
    );
  }

  /** A one-off check due at `at`; its id makes a second add of the same check (a re-run) a no-op. */
  private async addOnce(monitor: JobTarget, kind: 'now' | 'retry', at: number): Promise<void> {
    await this.queue.add(
      kind,
      { monitor, slotAt: at },
      {
        jobId: `${kind}:${monitor.id}:${at}`,
        delay: Math.max(0, at - Date.now()),
        removeOnComplete: true,
        removeOnFail: 1000,
      },
    );
  }

  private async run(job: CheckJob): Promise<void> {
    const slot = slotOf(job);
    this.inFlight += 1;
    try {
      // A due job of a monitor whose check is already running here is covered by that check.
      await this.runs.join(job.data.monitor.id, () => this.check(currentTarget(job.data.monitor), slot));
    } finally {
      this.inFlight -= 1;
    }
  }

  /** One check, stored; `slot` null for a manual check (stored even when paused, sooner than a batch). */
  private async check(monitor: JobTarget, slot: number | null): Promise<RecordedResult | null> {
    const intervalMs = monitor.interval * 1000;
    const result = slot === null ? await this.checker.check(monitor) : await this.admitted(monitor, slot);
    if (!result) return null;
    const rhythmNext = nextOnRhythm(
      spreadOffsetMs(monitor.id, intervalMs, this.grainOf(monitor)),
      intervalMs,
      Math.max(slot ?? 0, Date.now()),
    );
    const recorded = await this.writer.record(
      { monitorId: monitor.id, ...storedFields(result), rhythmNext: new Date(rhythmNext), slotAt: slot === null ? null : new Date(slot) },
      { immediately: slot === null },
    );
    // The regular slots come from the job scheduler (BullMQ cannot skip one); a pending monitor's retry due before the
    // next of them is a job of its own.
    const next = recorded && nextRun(stateOf(recorded.monitor), rhythmNext);
    if (next?.retry && next.at < rhythmNext) await this.orLater(monitor.id, () => this.addOnce(monitor, 'retry', next.at));
    return recorded;
  }

  /**
   * A scheduled check within its origin's budget: over it the job waits (holding no slot: the worker takes one more
   * job meanwhile) until its timeout after its slot, then is recorded as timed out. Null when shutting down.
   */
  private async admitted(monitor: JobTarget, slot: number): Promise<CheckVerdict | null> {
    const origin = this.checker.originOf(monitor);
    const since = Date.now();
    if (origin !== null && !this.origins.tryEnter(origin)) {
      this.setWaiting(+1);
      const entered = await this.origins.enter(origin, slot + monitor.timeout * 1000).finally(() => this.setWaiting(-1));
      if (this.closing) {
        if (entered) this.origins.leave(origin);
        return null;
      }
      if (!entered) {
        this.lateness.record(Date.now() - slot);
        return this.checker.waitedOut(monitor, origin, new Date(since), this.origins.inFlight(origin));
      }
    }
    this.lateness.record(Math.max(0, Date.now() - slot));
    try {
      return await this.checker.check(monitor);
    } finally {
      if (origin !== null) this.origins.leave(origin);
    }
  }

  private setWaiting(change: number): void {
    this.waitingForOrigin += change;
    const slots = this.config.monitors.checkConcurrency;
    if (this.worker) this.worker.concurrency = slots + Math.min(this.waitingForOrigin, slots * ORIGIN_WAITING_PER_SLOT);
  }

  /**
   * Makes the schedulers match the active monitors in the database (missing, changed or left-over ones), so a change
   * made while Redis was away, or a fresh Redis, heals. One instance at a time does it, under a Redis lock.
   */
  async reconcile(): Promise<void> {
    const lockKey = `${this.redis.prefix}:${QUEUE}:reconcile`;
    const connection = this.connection;
    try {
      if ((await connection.set(lockKey, String(process.pid), 'PX', RECONCILE_LOCK_MS, 'NX')) !== 'OK') return;
      try {
        const existing = new Map<string, { every?: number; data?: CheckJobData }>();
        for (let start = 0; ; start += PAGE) {
          const page = await this.queue.getJobSchedulers(start, start + PAGE - 1, true);
          for (const scheduler of page) existing.set(scheduler.key, { every: scheduler.every, data: scheduler.template?.data });
          if (page.length < PAGE) break;
        }
        const active = await this.monitors.loadActive();
        const wanted = new Set(active.map((m) => schedulerId(m.id)));
        const stale = active.filter((m) => {
          const current = existing.get(schedulerId(m.id));
          return !current || current.every !== m.interval * 1000 || JSON.stringify(current.data) !== JSON.stringify(jobData(m));
        });
        await inBatches(stale, (m) => this.upsert(m));
        await inBatches(
          [...existing.keys()].filter((key) => !wanted.has(key)),
          (key) => this.queue.removeJobScheduler(key),
        );
        this.scheduled = active.length;
        if (stale.length) this.logger.log(`Check schedulers: ${stale.length} written, ${active.length} active monitors`);
      } finally {
        await connection.del(lockKey);
      }
    } catch (error) {
      this.logger.error(`Reconciling check schedulers failed: ${(error as Error).message}`);
    }
  }

  private async countSchedulers(): Promise<void> {
    this.scheduled = await this.queue.getJobSchedulersCount().catch(() => this.scheduled);
  }
}

async function inBatches<T>(items: T[], work: (item: T) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < items.length; i += PARALLEL_WRITES) await Promise.all(items.slice(i, i + PARALLEL_WRITES).map(work));
}
