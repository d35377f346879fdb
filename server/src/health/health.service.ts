import { HttpStatus, Injectable, Logger } from '@nestjs/common';
import { MESSAGES, type MessageCode } from '@vigil/proto';
import { ApiException } from '../common/api-exception';
import { DatabaseWrites } from './database-writes';
import { HealthRepository } from './health.repository';

/** A database that does not answer within this time counts as down, so a load balancer is not kept waiting. */
const DATABASE_TIMEOUT_MS = 3000;
/** While writes fail, a probe at most this often keeps the evidence fresh (or lets it expire once writes work). */
const RETRY_PROBE_MS = 2000;
/** A quiet server (nothing written lately) probes this often, so a full disk shows without traffic. */
const IDLE_PROBE_MS = 60_000;

/** What health answers: 200, or 503 with one of these reasons. */
type HealthState = 'up' | Extract<MessageCode, 'health.databaseDown' | 'health.databaseWritesFailing'>;

/**
 * Health is `SELECT 1` (answers at all) plus whether writes work: failures seen by `DatabaseWrites` on real traffic,
 * and a one-row upsert when there is no recent evidence either way or while writes fail. The probe runs at most every few seconds and is
 * shared by concurrent callers, so polling /api/health stays cheap. A change of state is logged once, however often a
 * load balancer polls through it (a full disk used to log a stack trace per poll).
 */
@Injectable()
export class HealthService {
  private readonly logger = new Logger(HealthService.name);
  private probing: Promise<void> | null = null;
  private lastProbeAt = 0;
  private state: HealthState = 'up';

  constructor(
    private readonly database: HealthRepository,
    private readonly writes: DatabaseWrites,
  ) {}

  async check(): Promise<void> {
    const state = await this.assess();
    this.note(state);
    if (state !== 'up') throw new ApiException(HttpStatus.SERVICE_UNAVAILABLE, state);
  }

  private async assess(): Promise<HealthState> {
    if (!(await this.withinTime(this.database.ping()))) return 'health.databaseDown';
    const since = Date.now() - this.lastProbeAt;
    const probeDue = this.writes.failing()
      ? since >= RETRY_PROBE_MS
      : this.writes.sinceLastOutcome() >= IDLE_PROBE_MS && since >= IDLE_PROBE_MS;
    if (probeDue || this.probing) await this.probe();
    return this.writes.failing() ? 'health.databaseWritesFailing' : 'up';
  }

  /** One line per change of state, none while it lasts. */
  private note(state: HealthState): void {
    if (state === this.state) return;
    this.state = state;
    if (state === 'up') this.logger.log('Database answers and accepts writes again: /api/health answers 200');
    else this.logger.warn(`${MESSAGES[state]}: /api/health answers 503 until that changes`);
  }

  /** The outcome is recorded by DatabaseWrites like any other write. */
  private probe(): Promise<void> {
    this.probing ??= this.withinTime(this.database.writeProbe()).then(() => {
      this.lastProbeAt = Date.now();
      this.probing = null;
    });
    return this.probing;
  }

  private async withinTime(query: Promise<unknown>): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), DATABASE_TIMEOUT_MS);
    });
    try {
      return await Promise.race([
        query.then(
          () => true,
          () => false,
        ),
        timeout,
      ]);
    } finally {
      clearTimeout(timer);
    }
  }
}
