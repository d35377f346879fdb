import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { returnedRows } from './rows';

/**
 * Runs periodic housekeeping (pruning) once per period across every instance sharing the database: each instance's
 * timer asks, and only the first to ask after the period wins a claimed row in `settings`. With one instance it simply
 * runs on its timer.
 */
@Injectable()
export class JobClaims {
  private readonly logger = new Logger(JobClaims.name);

  constructor(private readonly dataSource: DataSource) {}

  /** True when this caller may run `job` now: nobody claimed it within the last `periodMs` (less a little slack). */
  async claim(job: string, periodMs: number): Promise<boolean> {
    // A tenth of slack, so timers a few ms apart on restarting instances do not skip a whole period.
    const rows = await this.dataSource.query(
      `INSERT INTO settings (key, value, updated_at) VALUES ($1, to_jsonb(now()), now())
       ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = now()
       WHERE settings.updated_at < now() - make_interval(secs => $2::float8 / 1000)
       RETURNING key`,
      [`job:${job}`, periodMs * 0.9],
    );
    return returnedRows(rows).length > 0;
  }

  /** Runs `work` if this instance wins the claim for this period; a failed claim (database away) is logged, not thrown. */
  async run(job: string, periodMs: number, work: () => Promise<unknown>): Promise<void> {
    try {
      if (await this.claim(job, periodMs)) await work();
    } catch (error) {
      this.logger.error(`Housekeeping job ${job} failed: ${(error as Error).message}`);
    }
  }
}
