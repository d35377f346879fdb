import { PROBE_LIMITS, type ProbeAssignment, type ProbeAssignmentsMessage, type ProbeResultReport } from '@vigil/proto';
import { ReportBuffer } from '../buffer';
import { log, warn } from '../log';
import { PROBE_CONCURRENCY } from './checks';

/** How often a recurring trouble (late starts, dropped results) is logged again, with its count so far. */
const NOTICE_EVERY_MS = 10 * 60_000;

export interface ProbeRunnerOptions {
  /** Runs one check (ProbeChecks.run); never throws. */
  run: (assignment: ProbeAssignment) => Promise<ProbeResultReport>;
  concurrency?: number;
  bufferMax?: number;
  /** Where in its interval a new check first runs, 0–1 (tests pin it). */
  random?: () => number;
}

interface Schedule {
  assignment: ProbeAssignment;
  /** Epoch milliseconds of its next run. */
  due: number;
  timer: NodeJS.Timeout;
}

/**
 * The checks the server assigned to this agent, each run every `interval` seconds. A check's first run falls at a
 * random point of its interval, so a full set after a reconnect does not start at once; later runs keep that rhythm.
 * A due check whose previous run has not ended, or that finds every slot taken, waits and starts as soon as it can
 * (never two runs of one monitor at a time). Results wait in a bounded buffer for the stream to send.
 */
export class ProbeRunner {
  readonly results: ReportBuffer<ProbeResultReport>;
  /** Runs that could not start when due (every slot taken, or the previous run still going). */
  lateStarts = 0;
  private readonly schedules = new Map<number, Schedule>();
  /** Monitors due but not started, in the order they fell due. */
  private readonly waiting = new Set<number>();
  private readonly running = new Set<number>();
  private readonly concurrency: number;
  private readonly random: () => number;
  private readonly noticed = { late: 0, dropped: 0 };

  constructor(private readonly options: ProbeRunnerOptions) {
    this.results = new ReportBuffer(options.bufferMax ?? PROBE_LIMITS.bufferMax);
    this.concurrency = options.concurrency ?? PROBE_CONCURRENCY;
    this.random = options.random ?? Math.random;
  }

  get size(): number {
    return this.schedules.size;
  }

  /**
   * A full set replaces everything; otherwise checks are added or changed by monitor id, and removed. A check whose
   * revision is unchanged keeps its rhythm; a changed one starts over like a new one.
   */
  apply(message: ProbeAssignmentsMessage): void {
    const upsert = (message.upsert ?? []).filter((assignment) => {
      const valid = Number.isInteger(assignment.monitor_id) && Number.isFinite(assignment.interval) && assignment.interval > 0;
      if (!valid) warn(`Assigned check for monitor ${String(assignment.monitor_id)} ignored: no usable id or interval`);
      return valid;
    });
    const kept = new Set(upsert.map((assignment) => assignment.monitor_id));
    const removed = message.full ? [...this.schedules.keys()].filter((id) => !kept.has(id)) : (message.remove ?? []);
    for (const id of removed) this.drop(id);
    let changed = 0;
    for (const assignment of upsert) {
      const current = this.schedules.get(assignment.monitor_id);
      if (current?.assignment.revision === assignment.revision) continue;
      this.drop(assignment.monitor_id);
      this.schedule(assignment);
      changed += 1;
    }
    if (message.full) log(`Running ${this.size} assigned checks from this host`);
    else if (changed || removed.length) log(`Assigned checks: ${changed} added or changed, ${removed.length} removed, ${this.size} in all`);
  }

  /** Stops scheduling; runs in flight end by their own timeout. */
  stop(): void {
    for (const id of [...this.schedules.keys()]) this.drop(id);
  }

  private schedule(assignment: ProbeAssignment): void {
    const due = Date.now() + Math.floor(this.random() * assignment.interval * 1000);
    this.schedules.set(assignment.monitor_id, {
      assignment,
      due,
      timer: setTimeout(() => this.fall(assignment.monitor_id), due - Date.now()),
    });
  }

  private drop(id: number): void {
    const schedule = this.schedules.get(id);
    if (schedule) clearTimeout(schedule.timer);
    this.schedules.delete(id);
    this.waiting.delete(id);
  }

  /** A check fell due: plan its next run on the same rhythm, then start it or let it wait. */
  private fall(id: number): void {
    const schedule = this.schedules.get(id);
    if (!schedule) return;
    const intervalMs = schedule.assignment.interval * 1000;
    const now = Date.now();
    // Runs missed while the process was held up (a suspended host) are not made up: the next one stays on the rhythm.
    schedule.due += intervalMs * Math.max(1, Math.floor((now - schedule.due) / intervalMs) + 1);
    schedule.timer = setTimeout(() => this.fall(id), schedule.due - now);
    // Already waiting: that run covers this one too.
    if (this.waiting.has(id)) return;
    if (this.running.has(id) || this.running.size >= this.concurrency) {
      this.lateStarts += 1;
      this.waiting.add(id);
      this.notice(
        'late',
        `Assigned checks started late, ${this.lateStarts} so far: more were due at once than ${this.concurrency}, or one ran longer than its interval`,
      );
      return;
    }
    this.start(schedule.assignment);
  }

  private start(assignment: ProbeAssignment): void {
    const id = assignment.monitor_id;
    this.running.add(id);
    void this.options
      .run(assignment)
      .then((result) => this.keep(result))
      .catch((error: Error) => warn(`Assigned check of monitor ${id} failed to run: ${error.message}`))
      .finally(() => {
        this.running.delete(id);
        this.startWaiting();
      });
  }

  /** Starts waiting checks, oldest due first, while slots are free (one whose previous run still goes stays waiting). */
  private startWaiting(): void {
    for (const id of this.waiting) {
      if (this.running.size >= this.concurrency) return;
      if (this.running.has(id)) continue;
      this.waiting.delete(id);
      const schedule = this.schedules.get(id);
      if (schedule) this.start(schedule.assignment);
    }
  }

  private keep(result: ProbeResultReport): void {
    const dropped = this.results.dropped;
    this.results.push(result);
    if (this.results.dropped > dropped) {
      this.notice(
        'dropped',
        `Results of assigned checks dropped, oldest first, ${this.results.dropped} so far: the server has been away too long`,
      );
    }
  }

  /** Logs a recurring trouble the first time and then at most every NOTICE_EVERY_MS. */
  private notice(kind: 'late' | 'dropped', message: string): void {
    if (Date.now() - this.noticed[kind] < NOTICE_EVERY_MS) return;
    this.noticed[kind] = Date.now();
    warn(message);
  }
}
