import { Inject, Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { syncAgentMaintenance } from '../agents/agent-maintenance';
import { toAgentDto } from '../agents/agent.mapper';
import type { AgentRow } from '../agents/agent.types';
import { conflict } from '../common/api-exception';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { DomainEvents, type Raise } from '../events/domain-events.service';
import { CheckScheduler } from '../monitors/check-scheduler.service';
import { deriveGroups } from '../monitors/groups/group-derivation';
import { groupsInMaintenance, leftMaintenance, moveCoveredIntoMaintenance } from '../monitors/maintenance-moves';
import { toScheduled } from '../monitors/monitor.mapper';
import { monitorCoverage } from './coverage';
import { windowStateOf, toMaintenanceDto } from './maintenance.mapper';
import { MaintenanceNotices } from './maintenance-notices';
import { MaintenanceRepository } from './maintenance.repository';
import type { MaintenanceRow } from './maintenance.types';
import type { Occurrence } from './schedule';
import { nextSpan, sweepStep } from './window-state';

export interface SettleOptions {
  /** The sweep: a window another instance holds now is left to it. */
  skipLocked?: boolean;
  /** End the applied span now (POST …/end: `required`; end-when-healthy: only while this span is still applied). */
  endSpan?: { required: true } | { required: false; appliedStart: Date };
  /** Runs in the window's transaction once it is decided (an audit entry). */
  alongside?: (db: EntityManager, row: MaintenanceRow) => Promise<void>;
}

interface Settled {
  row: MaintenanceRow;
  started: boolean;
  ended: boolean;
  agents: AgentRow[];
}

const date = (ms: number | null) => (ms === null ? null : new Date(ms));
const ms = (value: Date | null) => (value === null ? null : new Date(value).getTime());

/**
 * Starts and ends maintenance windows by the clock and the database, on every instance: each sweep reads the
 * windows, and for one whose span should start, end or move, takes the coverage lock and the window's row and decides
 * again (window-state.ts) on the database's clock, so each start and end happens once whichever instance gets there. A start moves what the
 * window covers into maintenance in the same transaction (monitors through the state machine, agents' flag) and
 * writes the start notice; an end clears what no other window covers, writes the end notice, and after the commit
 * checks the monitors it released at once (a failing one goes down and alerts then; one up goes up silently). Between
 * those, each sweep also catches up with edits (a scope grown, a monitor created under `all`) and ends the windows
 * whose monitors have been healthy long enough.
 */
@Injectable()
export class MaintenanceSweep implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(MaintenanceSweep.name);
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(
    private readonly dataSource: DataSource,
    private readonly events: DomainEvents,
    private readonly windows: MaintenanceRepository,
    private readonly notices: MaintenanceNotices,
    private readonly scheduler: CheckScheduler,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => {
      if (!this.running) this.running = this.sweep().finally(() => (this.running = null));
    }, this.config.maintenance.sweepMs);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** One pass over every window; a failure is logged and the next pass tries again. */
  async sweep(): Promise<void> {
    try {
      const now = (await this.windows.now()).getTime();
      for (const row of await this.windows.sweepable()) {
        if (this.due(row, now)) await this.settle(row.id, { skipLocked: true });
      }
      await this.endHealthy(now);
      await this.catchUp();
    } catch (error) {
      this.logger.warn(`Maintenance sweep failed: ${(error as Error).message}`);
    }
  }

  /** Whether the window's applied span or its next one is not what the clock says. */
  private due(row: MaintenanceRow, now: number): boolean {
    const window = windowStateOf(row);
    if (sweepStep(window, now).kind !== 'none') return true;
    const next = nextSpan(window, now);
    return (next?.start ?? null) !== ms(row.next_start) || (next?.end ?? null) !== ms(row.next_end);
  }

  /**
   * Decides one window now, under its row lock, and applies what changed in that transaction; after the commit,
   * re-checks released monitors and announces. Null: the window is gone (or, with `skipLocked`, another holds it).
   */
  async settle(id: number, options: SettleOptions = {}): Promise<MaintenanceRow | null> {
    const done = await this.events.transaction(this.dataSource, async (manager, raise): Promise<Settled | null> => {
      await this.windows.serialize(manager);
      let row = await this.windows.lock(manager, id, options.skipLocked);
      if (!row) return null;
      const at = await this.windows.now(manager);
      if (options.endSpan) {
        if (!row.applied_start) {
          if (options.endSpan.required) throw conflict('maintenance.notActive');
          return null;
        }
        if (!options.endSpan.required && ms(row.applied_start) !== ms(options.endSpan.appliedStart)) return null;
        // A manual window is switched off; another skips the rest of its span.
        const patch = row.strategy === 'manual' || !row.applied_end ? { enabled: false } : { skip_until: row.applied_end };
        row = await this.windows.setState(manager, id, patch);
      }
      const now = at.getTime();
      const step = sweepStep(windowStateOf(row), now);
      const ended = step.kind === 'end' || step.kind === 'restart';
      const started = step.kind === 'start' || step.kind === 'restart';
      if (ended) row = await this.end(manager, row, at);
      if (step.kind === 'start' || step.kind === 'restart') row = await this.start(manager, row, step.span, at);
      if (step.kind === 'extend') row = await this.windows.setState(manager, id, { applied_end: date(step.end) });
      const next = nextSpan(windowStateOf(row), now);
      if ((next?.start ?? null) !== ms(row.next_start) || (next?.end ?? null) !== ms(row.next_end))
        row = await this.windows.setState(manager, id, { next_start: date(next?.start ?? null), next_end: date(next?.end ?? null) });
      const agents = started || ended ? await this.follow(manager, raise, at) : [];
      await options.alongside?.(manager, row);
      return { row, started, ended, agents };
    });
    if (!done) return null;
    await this.announce(done);
    return done.row;
  }

  private async start(manager: EntityManager, row: MaintenanceRow, span: Occurrence, at: Date): Promise<MaintenanceRow> {
    const next = await this.windows.setState(manager, row.id, {
      applied_start: date(span.start),
      applied_end: date(span.end),
      applied_at: at,
    });
    await this.windows.logStart(manager, row.id, new Date(span.start));
    if (row.notify) await this.notices.send(manager, next, 'maintenance.started', { start: new Date(span.start), end: date(span.end) }, at);
    return next;
  }

  private async end(manager: EntityManager, row: MaintenanceRow, at: Date): Promise<MaintenanceRow> {
    const span = { start: new Date(row.applied_start!), end: row.applied_end && new Date(row.applied_end) };
    const next = await this.windows.setState(manager, row.id, { applied_start: null, applied_end: null, applied_at: null });
    await this.windows.logEnd(manager, row.id, at);
    if (row.notify) await this.notices.send(manager, row, 'maintenance.ended', span, at);
    return next;
  }

  /** After the commit: released monitors checked now, changed agents and the window announced. */
  private async announce({ row, started, ended, agents }: Settled): Promise<void> {
    if (ended) {
      for (const monitor of await leftMaintenance(this.dataSource)) {
        await this.scheduler.schedule(toScheduled(monitor), { checkNow: true }).catch((error: Error) => {
          this.logger.warn({ message: `Could not check monitor ${monitor.id} after maintenance: ${error.message}`, monitorId: monitor.id });
        });
      }
    }
    for (const agent of agents) this.events.emit('agent.updated', { agent: toAgentDto(agent) });
    if (!started && !ended) return;
    const [scopes, pages] = [await this.windows.scopes([row.id]), await this.windows.pages([row.id])];
    const maintenance = toMaintenanceDto(
      row,
      scopes.get(row.id)!,
      pages.get(row.id)!.map((page) => page.slug),
    );
    const pageIds = pages.get(row.id)!.map((page) => page.id);
    if (ended) this.events.emit('maintenance.changed', { action: 'ended', maintenance, pageIds });
    if (started) this.events.emit('maintenance.changed', { action: 'started', maintenance, pageIds });
  }

  /**
   * Windows that end themselves: once every checked monitor they cover passed its last check and none failed for
   * `end_when_healthy_minutes` ("minutes" of ALERT_MINUTE_MS) since the span was applied or since the last failure.
   */
  private async endHealthy(now: number): Promise<void> {
    const candidates = await this.windows.endingWhenHealthy();
    if (!candidates.length) return;
    const checked = await this.windows.checkedMonitorIds();
    for (const row of candidates) {
      const since = new Date(row.applied_at ?? row.applied_start!);
      const covered = (await monitorCoverage(this.dataSource, checked, [row.id])).map((pair) => pair.monitor_id);
      const health = await this.windows.health(covered, since);
      if (health.passing < health.monitors) continue;
      const quietSince = Math.max(since.getTime(), health.lastFailure?.getTime() ?? 0);
      if (now - quietSince < row.end_when_healthy_minutes! * this.config.notifications.alertMinuteMs) continue;
      await this.settle(row.id, { skipLocked: true, endSpan: { required: false, appliedStart: row.applied_start! } });
    }
  }

  /**
   * What is covered follows the active windows, in the caller's transaction: monitors newly covered move into
   * maintenance, groups shown in maintenance decide again (from their members, or still covered), agents' flags are
   * set to what is covered. Idempotent: a row moves once, whoever runs it. Answers the agents whose flag changed.
   */
  private async follow(manager: EntityManager, raise: Raise, at: Date): Promise<AgentRow[]> {
    await moveCoveredIntoMaintenance(manager, raise, at);
    await deriveGroups(manager, raise, [], await groupsInMaintenance(manager), at);
    return syncAgentMaintenance(manager, raise, at);
  }

  /** Catches up with what changed under active windows (a scope grown, a monitor created under `all`); every sweep. */
  private async catchUp(): Promise<void> {
    const agents = await this.events.transaction(this.dataSource, async (manager, raise) => {
      await this.windows.serialize(manager);
      return this.follow(manager, raise, await this.windows.now(manager));
    });
    for (const agent of agents) this.events.emit('agent.updated', { agent: toAgentDto(agent) });
  }

  /** A window was saved or deleted: what it covers follows at once, and monitors it released are checked now. */
  async released(): Promise<void> {
    await this.catchUp();
    for (const monitor of await leftMaintenance(this.dataSource)) {
      await this.scheduler.schedule(toScheduled(monitor), { checkNow: true });
    }
  }
}
