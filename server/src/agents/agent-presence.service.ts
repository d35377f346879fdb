import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config';
import { JobClaims } from '../database/job-claims';
import { AgentsRepository } from './agents.repository';
import { Tier } from './figures';

const SWEEP_EVERY_MS = 1_000;
const PRUNE_EVERY_MS = 10 * 60_000;

/**
 * Online/offline bookkeeping. Connections and disconnections are written to the agent's row; a sweep every second
 * moves agents past their grace period (or three silent intervals) to `inactive`. Kept in the database rather than
 * in timers so a restart, or another instance, sees the same truth. Also prunes the metric tiers.
 */
@Injectable()
export class AgentPresence implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(AgentPresence.name);
  private timers: NodeJS.Timeout[] = [];
  private sweeping = false;

  constructor(
    private readonly agents: AgentsRepository,
    private readonly claims: JobClaims,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    // Once at start (catching up after downtime), then instances sharing the database take turns: only the first to
    // ask in a period prunes.
    const pruneOnce = () => void this.claims.run('prune.agent-metrics', PRUNE_EVERY_MS, () => this.prune());
    this.timers.push(
      setInterval(() => void this.sweep(), SWEEP_EVERY_MS),
      setInterval(pruneOnce, PRUNE_EVERY_MS),
      setTimeout(() => void this.prune(), 3_000),
    );
    for (const timer of this.timers) timer.unref();
  }

  onModuleDestroy(): void {
    for (const timer of this.timers) clearTimeout(timer);
  }

  /** The repository raises `agent.status_changed` for a transition, as for the sweep's. */
  async connected(agentId: number, connectionId: string): Promise<void> {
    await this.agents.connected(agentId, connectionId);
  }

  async disconnected(agentId: number, connectionId: string): Promise<void> {
    await this.agents.disconnected(agentId, connectionId);
  }

  async sweep(): Promise<void> {
    if (this.sweeping) return;
    this.sweeping = true;
    try {
      await this.agents.sweepInactive(this.config.agents.graceSeconds);
    } catch (error) {
      this.logger.error(`Agent presence sweep failed: ${(error as Error).message}`);
    } finally {
      this.sweeping = false;
    }
  }

  async prune(now = Date.now()): Promise<number> {
    const { minuteRetentionHours, fiveMinuteRetentionDays, hourRetentionDays } = this.config.agents;
    const cutoffs: Record<Tier, Date> = {
      60: new Date(now - minuteRetentionHours * 3_600_000),
      300: new Date(now - fiveMinuteRetentionDays * 86_400_000),
      3600: new Date(now - hourRetentionDays * 86_400_000),
    };
    try {
      const removed = await this.agents.prune(cutoffs);
      if (removed) this.logger.log(`Pruned ${removed} agent metric points`);
      return removed;
    } catch (error) {
      this.logger.error(`Pruning agent metrics failed: ${(error as Error).message}`);
      return 0;
    }
  }
}
