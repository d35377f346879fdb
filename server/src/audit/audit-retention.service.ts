import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config';
import { JobClaims } from '../database/job-claims';
import { AuditRepository } from './audit.repository';

const PRUNE_EVERY_MS = 3_600_000;

/** Drops audit entries older than AUDIT_RETENTION_DAYS, hourly; instances sharing the database take turns. */
@Injectable()
export class AuditRetention implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(AuditRetention.name);
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly entries: AuditRepository,
    private readonly claims: JobClaims,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.claims.run('prune.audit', PRUNE_EVERY_MS, () => this.prune()), PRUNE_EVERY_MS);
    this.timer.unref();
  }

  async prune(): Promise<number> {
    const removed = await this.entries.prune(this.config.auditRetentionDays);
    if (removed) this.logger.log(`Pruned ${removed} audit entries older than ${this.config.auditRetentionDays} days`);
    return removed;
  }

  onModuleDestroy(): void {
    if (this.timer) clearInterval(this.timer);
  }
}
