import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config';
import { JobClaims } from '../database/job-claims';
import { MonitorsRepository } from './monitors.repository';

const PRUNE_EVERY_MS = 10 * 60_000;

/** Drops raw checks after the raw window (48 h by default) and hourly aggregates after a year and more. */
@Injectable()
export class RetentionService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(RetentionService.name);
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly monitors: MonitorsRepository,
    private readonly claims: JobClaims,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    // Once soon after start (an install that was down for days catches up), then every 10 minutes.
    const first = setTimeout(() => void this.prune(), 2_000);
    first.unref();
    // Instances sharing the database take turns on the timer: only the first to ask in a period prunes.
    this.timer = setInterval(() => void this.claims.run('prune.checks', PRUNE_EVERY_MS, () => this.prune()), PRUNE_EVERY_MS);
    this.timer.unref();
  }

  async prune(now = new Date()): Promise<{ checks: number; aggregates: number }> {
    const { checkRetentionHours, aggregateRetentionDays } = this.config.monitors;
    try {
      const removed = await this.monitors.prune(
        new Date(now.getTime() - checkRetentionHours * 3_600_000),
        new Date(now.getTime() - aggregateRetentionDays * 86_400_000),
      );
      if (removed.checks || removed.aggregates) {
        this.logger.log(`Pruned ${removed.checks} raw checks and ${removed.aggregates} hourly aggregates`);
      }
      return removed;
    } catch (error) {
      this.logger.error(`Pruning failed: ${(error as Error).message}`);
      return { checks: 0, aggregates: 0 };
    }
  }

  onModuleDestroy(): void {
    if (this.timer) clearInterval(this.timer);
  }
}
