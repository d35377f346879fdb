import { HttpStatus, Injectable } from '@nestjs/common';
import { ApiException } from '../common/api-exception';
import { DatabaseWrites } from './database-writes';
import { HealthRepository } from './health.repository';

/** A database that does not answer within this time counts as down, so a load balancer is not kept waiting. */
const DATABASE_TIMEOUT_MS = 3000;
/** While writes fail, a probe at most this often keeps the evidence fresh (or lets it expire once writes work). */
const RETRY_PROBE_MS = 2000;
/** A quiet server (nothing written lately) probes this often, so a full disk shows without traffic. */
const IDLE_PROBE_MS = 60_000;

/**
 * Health is `SELECT 1` (answers at all) plus whether writes work: failures seen by `DatabaseWrites` on real traffic,
 * and a one-row upsert when there is no recent evidence either way or while writes fail. The probe runs at most every few seconds and is
 * shared by concurrent callers, so polling /api/health stays cheap.
 */
@Injectable()
export class HealthService {
  private probing: Promise<void> | null = null;
  private lastProbeAt = 0;

  constructor(
    private readonly database: HealthRepository,
    private readonly writes: DatabaseWrites,
  ) {}

  async check(): Promise<void> {
    if (!(await this.withinTime(this.database.ping()))) {
      throw new ApiException(HttpStatus.SERVICE_UNAVAILABLE, 'health.databaseDown');
    }
    const since = Date.now() - this.lastProbeAt;
    const probeDue = this.writes.failing()
      ? since >= RETRY_PROBE_MS
      : this.writes.sinceLastOutcome() >= IDLE_PROBE_MS && since >= IDLE_PROBE_MS;
    if (probeDue || this.probing) await this.probe();
    if (this.writes.failing()) throw new ApiException(HttpStatus.SERVICE_UNAVAILABLE, 'health.databaseWritesFailing');
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
