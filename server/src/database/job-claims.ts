import { Injectable, Logger } from '@nestjs/common';
import { JobClaimsRepository } from './job-claims.repository';

/**
 * Runs periodic housekeeping (pruning) once per period across every instance sharing the database: each instance's
 * timer asks, and only the first to ask after the period wins a claimed row in `settings`. With one instance it simply
 * runs on its timer.
 */
@Injectable()
export class JobClaims {
  private readonly logger = new Logger(JobClaims.name);

  constructor(private readonly claims: JobClaimsRepository) {}

  /** True when this caller may run `job` now: nobody claimed it within the last `periodMs` (less a little slack). */
  claim(job: string, periodMs: number): Promise<boolean> {
    // A tenth of slack, so timers a few ms apart on restarting instances do not skip a whole period.
    return this.claims.claim(job, periodMs * 0.9);
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
