import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import {
  CheckDto,
  DETAIL_HISTORY_POINTS,
  isScheduled,
  locationAgentId,
  MESSAGES,
  MessageCode,
  MonitorDto,
  MonitorLimitsResponse,
  MonitorTestResponse,
  MonitorsResponse,
  MonitorStatsResponse,
  Role,
  SERVER_LOCATION,
  StatsRange,
  SUMMARY_HISTORY_SLOTS,
} from '@vigil/proto';
import { ApiException, badRequest, notFound } from '../common/api-exception';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { describeRefusal, outboundScopeOf, type OutboundRule } from '../common/outbound';
import { bucketPolicy } from '../common/limits/limit-store';
import { Limiter } from '../common/limits/limiter';
import { AuditLog } from '../audit/audit-log.service';
import { changesOf } from '../audit/audit-changes';
import { DomainEvents } from '../events/domain-events.service';
import { CheckPipeline } from './check-pipeline';
import { CheckScheduler } from './check-scheduler.service';
import { daysRemaining } from './checkers/peer-certificate';
import { createFields, TARGET_FIELDS, updateFields } from './monitor-fields';
import { toCheckTarget, toScheduled } from './monitor.mapper';
import { oriented } from './monitor-state';
import type { CheckTarget } from './checkers';
import { toCheckDto, toMonitorDto } from './monitor.mapper';
import type { MonitorRow } from './monitor.types';
import type { Sql } from '../database/rows';
import { afterCommit } from '../database/shared-transaction';
import { CreateMonitorDto, ListMonitorsQuery, TestMonitorDto, UpdateMonitorDto } from './monitors.dto';
import { fieldsAsRow, MonitorsRepository, RecordedResult, type MonitorFields } from './monitors.repository';
import { MonitorStats } from './monitor-stats';
import { DependenciesRepository } from './dependencies/dependencies.repository';
import { DependenciesService } from './dependencies/dependencies.service';
import { monitorMask, monitorSnapshot } from './monitor-audit';
import { GroupsService } from './groups/groups.service';
import { agentDependencies } from './settings-agents';
import { assertHostAgent } from './host/monitor-host.service';
import { LocationsRepository } from './locations/locations.repository';

/** Checks shown on the detail page before the history tab pages further. */
const DETAIL_CHECKS = 50;
/** Test checks reach out on a user's say: a few at once, then one every few seconds, per user and per address. */
export const TEST_CHECKS = bucketPolicy('test-checks', { burst: 10, perMinute: 20 });

@Injectable()
export class MonitorsService {
  constructor(
    private readonly monitors: MonitorsRepository,
    private readonly scheduler: CheckScheduler,
    private readonly stats: MonitorStats,
    private readonly events: DomainEvents,
    private readonly pipeline: CheckPipeline,
    private readonly audit: AuditLog,
    private readonly limiter: Limiter,
    private readonly dependencies: DependenciesService,
    private readonly dependencyRows: DependenciesRepository,
    private readonly groups: GroupsService,
    private readonly locations: LocationsRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** `GET /api/monitors/limits`: bounds of this server the form applies before sending. */
  limits(): Omit<MonitorLimitsResponse, 'success'> {
    return { intervalMin: this.config.monitors.minIntervalSeconds };
  }

  /** An interval below this server's floor is refused naming the field (the DTO holds the bound every server has). */
  private assertIntervalAllowed(interval: number | undefined): void {
    if (interval !== undefined && interval < this.config.monitors.minIntervalSeconds) {
      throw new ApiException(HttpStatus.BAD_REQUEST, 'monitors.intervalBelowFloor', undefined, undefined, 'interval');
    }
  }

  async list(query: ListMonitorsQuery): Promise<Omit<MonitorsResponse, 'success'>> {
    const paged = query.page !== undefined || query.pageSize !== undefined;
    const page = query.page ?? 1;
    const pageSize = query.pageSize ?? 100;
    const [{ rows, total }, counts] = await Promise.all([
      this.monitors.list({
        offset: paged ? (page - 1) * pageSize : 0,
        limit: paged ? pageSize : null,
        filter: query.filter ?? 'all',
        status: query.status,
        type: query.type,
        search: query.search?.trim() || undefined,
        tag: query.tag,
        topLevel: query.topLevel,
        parentId: query.parentId,
      }),
      this.monitors.counts(),
    ]);
    const monitors = await this.withSummaries(rows, SUMMARY_HISTORY_SLOTS);
    return { monitors, total, page: paged ? page : 1, pageSize: paged ? pageSize : total, counts };
  }

  async get(id: number): Promise<MonitorDto> {
    const row = await this.find(id);
    const [[monitor], { rows }] = await Promise.all([
      this.withSummaries([row], DETAIL_HISTORY_POINTS),
      this.monitors.checks(id, 0, DETAIL_CHECKS),
    ]);
    return { ...monitor, checks: rows.map(toCheckDto) };
  }

  /** Raises `monitor.updated` for a change written elsewhere (mute: alerts/), so open screens see it as any edit. */
  async announceUpdated(id: number): Promise<MonitorDto> {
    return this.announce('monitor.updated', await this.find(id));
  }

  /** `saver`: the role of whoever saves it, whose outbound rules its checks then follow. */
  async create(input: CreateMonitorDto, saver: Role): Promise<MonitorDto> {
    const fields: MonitorFields = { ...createFields(input), key: input.key, outboundScope: outboundScopeOf(saver) };
    this.assertIntervalAllowed(fields.interval);
    assertTimeoutBelowInterval(fields.timeout, fields.interval);
    await this.assertReachable(toCheckTarget({ ...fieldsAsRow(fields), id: 0 }));
    const row = await this.audit.transaction(async (db, record) => {
      await this.assertLocations([SERVER_LOCATION], fields.locations, saver, db);
      fields.dependsOn = (await agentDependencies(fields, null, (refs) => this.dependencyRows.existing(refs, db))) ?? fields.dependsOn;
      await this.dependencies.assertValid(null, fields.dependsOn, db);
      await this.groups.assertParent(null, fields.parentId, db);
      await assertHostAgent(fields.hostAgentId, db);
      const created = await this.monitors.insert(fields, null, db);
      await record({ action: 'monitor.created', target: target(created), changes: changesOf(null, monitorSnapshot(created), monitorMask) });
      return created;
    });
    // A new monitor is checked at once, so its status is known within seconds, then keeps that rhythm.
    if (row.active && isScheduled(row.type)) await afterCommit(() => this.scheduler.schedule(toScheduled(row), { checkNow: true }));
    await this.groups.recompute([row.id], row.type === 'group' ? [row.id] : []);
    return this.announce('monitor.created', (await this.monitors.findById(row.id)) ?? row);
  }

  /** The monitor takes the saver's outbound rules: a user's edit of an admin's monitor makes it a user's. */
  async update(id: number, input: UpdateMonitorDto, saver: Role): Promise<MonitorDto> {
    const current = await this.find(id);
    const fields: Partial<MonitorFields> = { ...updateFields(current, input), key: input.key, outboundScope: outboundScopeOf(saver) };
    // A monitor saved before the floor was raised keeps its interval until the interval itself is changed.
    if (fields.interval !== current.interval_s) this.assertIntervalAllowed(fields.interval);
    assertTimeoutBelowInterval(fields.timeout ?? current.timeout_s, fields.interval ?? current.interval_s);
    const targetChanged = TARGET_FIELDS.some((key) => fields[key] !== undefined);
    if (targetChanged || outboundScopeOf(saver) !== current.outbound_scope)
      await this.assertReachable(toCheckTarget({ ...current, ...fieldsAsRow(fields) }));
    const row = await this.audited(id, 'monitor.updated', async (db) => {
      if (fields.locations) {
        await this.assertLocations(current.locations, fields.locations, saver, db);
        await this.locations.forgetOthers(id, fields.locations, db);
      }
      const next = { ...fields, type: fields.type ?? current.type, settings: fields.settings ?? current.settings };
      fields.dependsOn = (await agentDependencies(next, current, (refs) => this.dependencyRows.existing(refs, db))) ?? fields.dependsOn;
      if (fields.dependsOn)
        await this.dependencies.assertValid({ ref: { type: 'monitor', id }, name: fields.name ?? current.name }, fields.dependsOn, db);
      await this.groups.assertParent(id, fields.parentId, db);
      await assertHostAgent(fields.hostAgentId, db);
      if (current.type === 'group' && fields.type !== undefined && fields.type !== 'group') await this.groups.detachMembers(id, db);
      return this.monitors.update(id, fields, targetChanged ? { nextCheckAt: null } : {}, db);
    });
    await this.reschedule(row, { checkNow: targetChanged || (row.active && !current.active) });
    // The groups it left and joined, and a group whose rule changed, follow at once.
    await this.groups.recompute([id], [current.parent_id, ...(row.type === 'group' ? [id] : [])]);
    return this.announce('monitor.updated', (await this.monitors.findById(id)) ?? row);
  }

  /**
   * One check of an unsaved monitor body through the same pipeline as every check (OUTBOUND_DENY included); nothing
   * is stored. A push monitor has nothing to probe: its pushes are its checks.
   */
  async test(
    input: TestMonitorDto,
    caller: { userId: number; role: Role; address: string },
  ): Promise<Omit<MonitorTestResponse, 'success'>> {
    await this.limiter.take(TEST_CHECKS, [`user:${caller.userId}`, `address:${caller.address}`]);
    const fields: MonitorFields = { ...createFields(input), outboundScope: outboundScopeOf(caller.role) };
    if (fields.type === 'push') throw badRequest('monitors.pushNoCheck');
    if (fields.type === 'group') throw badRequest('monitors.groupNoCheck');
    if (!isScheduled(fields.type)) throw badRequest('monitors.manualNoCheck');
    this.assertIntervalAllowed(fields.interval);
    assertTimeoutBelowInterval(fields.timeout, fields.interval);
    const target = toCheckTarget({ ...fieldsAsRow(fields), id: 0 });
    await this.assertReachable(target);
    // Answered as the monitor would record it: upside down inverts the verdict (monitor-state.ts).
    const verdict = oriented(await this.pipeline.check(target), fields.upsideDown);
    const { certificate } = verdict;
    return {
      result: {
        ok: verdict.ok,
        status_code: verdict.statusCode,
        response_time: verdict.responseTime,
        error: verdict.error,
        checked_at: verdict.checkedAt.toISOString(),
        certificate: certificate && {
          subject: certificate.subject,
          issuer: certificate.issuer,
          expires_at: certificate.expiresAt.toISOString(),
          days_remaining: daysRemaining(certificate.expiresAt, verdict.checkedAt),
        },
        assertions: verdict.assertions,
      },
    };
  }

  async remove(id: number): Promise<void> {
    const row = await this.audit.transaction(async (db, record) => {
      const deleted = await this.monitors.delete(id, db);
      if (!deleted) throw notFound('monitors.notFound');
      await this.dependencyRows.removeReferences(db, { type: 'monitor', id });
      await record({ action: 'monitor.deleted', target: target(deleted), changes: changesOf(monitorSnapshot(deleted), null, monitorMask) });
      return deleted;
    });
    await afterCommit(() => this.scheduler.unschedule(id));
    // Its members are detached (parent_id ON DELETE SET NULL); the group it was in follows without it.
    await this.groups.recompute([], [row.parent_id]);
    this.events.emit('monitor.deleted', { monitor: toMonitorDto(row) });
  }

  async setActive(id: number, active: boolean): Promise<MonitorDto> {
    const current = await this.find(id);
    // A resumed push monitor waits a whole interval for its first push before it is late.
    const resumedPush = active && !current.active && current.type === 'push';
    const fields = resumedPush ? { active, pushAwaitedSince: new Date() } : { active };
    const row = await this.audited(id, active ? 'monitor.resumed' : 'monitor.paused', (db) =>
      this.monitors.update(id, fields, active ? { nextCheckAt: null, resetState: false } : {}, db),
    );
    // Resuming checks at once; pausing stops the schedule (a check already running still completes).
    await this.reschedule(row, { checkNow: active });
    if (row.type === 'group') {
      // A group is paused and resumed with everything in it.
      for (const member of await this.groups.setMembersActive(id, active)) {
        await this.reschedule(member, { checkNow: active });
        await this.announce('monitor.updated', member);
      }
    }
    await this.groups.recompute([id], row.type === 'group' ? [id] : []);
    return this.announce('monitor.updated', (await this.monitors.findById(id)) ?? row);
  }

  /**
   * Runs a check now through the scheduler, which stores it like any other (transitions included), plans the retry,
   * and never runs it beside another check of the same monitor.
   */
  async checkNow(id: number): Promise<{ check: CheckDto; monitor: MonitorDto }> {
    const row = await this.find(id);
    if (row.type === 'group') throw badRequest('monitors.groupNoCheck');
    if (!isScheduled(row.type)) throw badRequest('monitors.manualNoCheck');
    const recorded = await this.scheduler.checkNow(toScheduled(row));
    // A push monitor's check records nothing while its last push is recent.
    if (!recorded && row.type === 'push') throw badRequest('monitors.pushNoCheck');
    if (!recorded) throw notFound('monitors.notFound');
    return { check: toCheckDto(recordedCheck(recorded)), monitor: await this.get(id) };
  }

  async statsFor(id: number, range: StatsRange): Promise<MonitorStatsResponse['stats']> {
    await this.find(id);
    return this.stats.compute(id, range);
  }

  async checks(id: number, page: number, pageSize: number) {
    await this.find(id);
    const { rows, total } = await this.monitors.checks(id, (page - 1) * pageSize, pageSize);
    return { checks: rows.map(toCheckDto), total, page, pageSize };
  }

  private async withSummaries(rows: MonitorRow[], points: number): Promise<MonitorDto[]> {
    const ids = rows.map((row) => row.id);
    const groups = rows.filter((row) => row.type === 'group').map((row) => row.id);
    const [history, uptime, members] = await Promise.all([
      this.monitors.history(ids, points),
      this.monitors.uptime24h(ids),
      this.groups.memberCounts(groups),
    ]);
    return rows.map((row) => toMonitorDto(row, { history: history.get(row.id), uptime: uptime.get(row.id), members: members.get(row.id) }));
  }

  /** After the commit: inside a configuration apply, a schedule waits for the monitor's row to be visible. */
  private async reschedule(row: MonitorRow, options: { checkNow: boolean }): Promise<void> {
    // A group is never checked (its status follows its members), nor a manual monitor.
    if (!row.active || !isScheduled(row.type)) await afterCommit(() => this.scheduler.unschedule(row.id));
    else await afterCommit(() => this.scheduler.schedule(toScheduled(row), options));
  }

  /** Refuses (400, naming the rule and the address) a target its saver may not reach; checks judge again at connect. */
  private async assertReachable(target: CheckTarget): Promise<void> {
    const refused = await this.pipeline.refusal(target);
    if (!refused) return;
    const code = REFUSAL_CODES[refused.rule];
    throw badRequest(code, `${MESSAGES[code]} (${describeRefusal(refused)})`);
  }

  /** Runs `write` on the locked row and records what it changed, in one transaction (nothing when nothing changed). */
  private audited(
    id: number,
    action: 'monitor.updated' | 'monitor.paused' | 'monitor.resumed',
    write: (db: Sql) => Promise<MonitorRow | null>,
  ): Promise<MonitorRow> {
    return this.audit.transaction(async (db, record) => {
      const before = await this.monitors.findForUpdate(id, db);
      const row = before && (await write(db));
      if (!before || !row) throw notFound('monitors.notFound');
      const changes = changesOf(monitorSnapshot(before), monitorSnapshot(row), monitorMask);
      if (changes) await record({ action, target: target(row), changes });
      return row;
    });
  }

  private async find(id: number): Promise<MonitorRow> {
    const row = await this.monitors.findById(id);
    if (!row) throw notFound('monitors.notFound');
    return row;
  }

  /**
   * Agents chosen as locations must exist, and only an admin may change which agents check a monitor: the agent
   * receives the check's target and secrets.
   */
  private async assertLocations(before: readonly string[], after: readonly string[], saver: Role, db: Sql): Promise<void> {
    const agentsOf = (locations: readonly string[]) =>
      locations
        .filter((location) => location !== SERVER_LOCATION)
        .sort()
        .join(',');
    if (agentsOf(before) === agentsOf(after)) return;
    if (saver !== 'admin') throw new ApiException(HttpStatus.FORBIDDEN, 'monitors.locationsAdminOnly', undefined, undefined, 'locations');
    const ids = after.map(locationAgentId).filter((id): id is number => typeof id === 'number');
    const found = await db.query<Array<{ id: number }>>(`SELECT id FROM agents WHERE id = ANY($1::int[])`, [ids]);
    if (found.length !== ids.length)
      throw new ApiException(HttpStatus.BAD_REQUEST, 'monitors.locationAgentUnknown', undefined, undefined, 'locations');
  }

  private async announce(event: 'monitor.created' | 'monitor.updated', row: MonitorRow): Promise<MonitorDto> {
    const [monitor] = await this.withSummaries([row], SUMMARY_HISTORY_SLOTS);
    this.events.emit(event, { monitor });
    return monitor;
  }
}

const REFUSAL_CODES: Record<OutboundRule, MessageCode> = {
  OWN_SERVICE: 'monitors.targetOwnService',
  OUTBOUND_DENY: 'monitors.targetDenied',
  USER_OUTBOUND_DENY: 'monitors.targetUserDenied',
};

const target = (row: MonitorRow) => ({ type: 'monitor' as const, id: row.id, name: row.name });

function assertTimeoutBelowInterval(timeout: number, interval: number): void {
  if (timeout >= interval) throw badRequest('monitors.timeoutInvalid');
}

function recordedCheck({ checkId, input, check }: RecordedResult) {
  return {
    id: checkId,
    status: check,
    status_code: input.statusCode,
    response_time: input.responseTime,
    error: input.error,
    checked_at: input.checkedAt,
  };
}
