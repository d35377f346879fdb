import { Injectable } from '@nestjs/common';
import {
  MAINTENANCE_LIMITS,
  type MaintenanceCalendarResponse,
  type MaintenanceDto,
  type MaintenanceListResponse,
  type MaintenanceScope,
} from '@vigil/proto';
import { DataSource } from 'typeorm';
import { AuditLog } from '../audit/audit-log.service';
import { changesOf } from '../audit/audit-changes';
import { badRequest, notFound } from '../common/api-exception';
import { renderMarkdown } from '../common/markdown';
import type { Sql } from '../database/rows';
import { DomainEvents } from '../events/domain-events.service';
import { agentCoverage, monitorCoverage } from './coverage';
import type { CalendarQuery, MaintenanceQuery, SaveMaintenanceDto } from './maintenance.dto';
import { windowInput, type WindowInput } from './maintenance-fields';
import { scheduleOf, toMaintenanceDto } from './maintenance.mapper';
import { MaintenanceRepository } from './maintenance.repository';
import { MaintenanceSweep } from './maintenance-sweep.service';
import type { MaintenanceRow } from './maintenance.types';
import { pageMaintenance, rangeStart, type PageMaintenance } from './page-view';
import { merge, occurrencesBetween } from './schedule';

const CALENDAR_DAYS_MAX = 62;
/** Spans one window shows in one calendar read at most (a run every minute for 62 days is 89,280). */
const CALENDAR_SPANS_MAX = 1_000;
const DAY_MS = 86_400_000;

/** Maintenance windows: their CRUD, the calendar, ending one now, and what a status page shows of them. */
@Injectable()
export class MaintenanceService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly windows: MaintenanceRepository,
    private readonly sweep: MaintenanceSweep,
    private readonly audit: AuditLog,
    private readonly events: DomainEvents,
  ) {}

  async list(query: MaintenanceQuery): Promise<Omit<MaintenanceListResponse, 'success'>> {
    const page = query.page ?? 1;
    const pageSize = query.pageSize ?? 50;
    let ids: number[] | undefined;
    if (query.monitorId !== undefined)
      ids = (await monitorCoverage(this.dataSource, [query.monitorId], 'all')).map((pair) => pair.window_id);
    if (query.agentId !== undefined) {
      const covering = (await agentCoverage(this.dataSource, [query.agentId], 'all')).map((pair) => pair.window_id);
      ids = ids ? ids.filter((id) => covering.includes(id)) : covering;
    }
    const { rows, total } = await this.windows.list({ offset: (page - 1) * pageSize, limit: pageSize, phase: query.phase, ids });
    return { maintenance: await this.dtos(rows), total, page, pageSize };
  }

  async get(id: number): Promise<MaintenanceDto> {
    const row = await this.windows.findById(id);
    if (!row) throw notFound('maintenance.notFound');
    return (await this.dtos([row]))[0];
  }

  async create(body: SaveMaintenanceDto): Promise<MaintenanceDto> {
    const input = windowInput(body);
    const row = await this.audit.transaction(async (db, record) => {
      await this.windows.serialize(db);
      const pageIds = await this.assertKnown(db, input);
      const created = await this.windows.insert(db, input.fields);
      await this.windows.setKey(db, created.id, body.key);
      await this.windows.setScope(db, created.id, input.scope);
      await this.windows.setPages(db, created.id, pageIds);
      await record({
        action: 'maintenance.created',
        target: target(created),
        changes: changesOf(null, snapshot(created, input.scope, input.pages)),
      });
      return created;
    });
    return this.saved(row.id, 'created', []);
  }

  async update(id: number, body: SaveMaintenanceDto): Promise<MaintenanceDto> {
    const input = windowInput(body);
    const before = await this.audit.transaction(async (db, record) => {
      await this.windows.serialize(db);
      const current = await this.windows.lock(db, id);
      if (!current) throw notFound('maintenance.notFound');
      const [scopes, pages] = [await this.windows.scopes([id], db), await this.windows.pages([id], db)];
      const pageIds = await this.assertKnown(db, input);
      const after = (await this.windows.update(db, id, input.fields))!;
      await this.windows.setKey(db, id, body.key);
      await this.windows.setScope(db, id, input.scope);
      await this.windows.setPages(db, id, pageIds);
      const slugs = pages.get(id)!.map((page) => page.slug);
      const changes = changesOf(snapshot(current, scopes.get(id)!, slugs), snapshot(after, input.scope, input.pages));
      if (changes) await record({ action: 'maintenance.updated', target: target(after), changes });
      return pages.get(id)!.map((page) => page.id);
    });
    return this.saved(id, 'updated', before);
  }

  async remove(id: number): Promise<void> {
    const { dto, pageIds } = await this.audit.transaction(async (db, record) => {
      await this.windows.serialize(db);
      const current = await this.windows.lock(db, id);
      if (!current) throw notFound('maintenance.notFound');
      const [scopes, pages] = [await this.windows.scopes([id], db), await this.windows.pages([id], db)];
      const slugs = pages.get(id)!.map((page) => page.slug);
      await this.windows.delete(db, id);
      await record({
        action: 'maintenance.deleted',
        target: target(current),
        changes: changesOf(snapshot(current, scopes.get(id)!, slugs), null),
      });
      return { dto: toMaintenanceDto(current, scopes.get(id)!, slugs), pageIds: pages.get(id)!.map((page) => page.id) };
    });
    // What it covered leaves maintenance at once (monitors checked now), unless another window covers it.
    await this.sweep.released();
    this.events.emit('maintenance.changed', { action: 'deleted', maintenance: dto, pageIds });
  }

  /** `POST /api/maintenance/{id}/end`: the span applied now ends now (a manual window is switched off); 409 when none is. */
  async end(id: number): Promise<MaintenanceDto> {
    const row = await this.sweep.settle(id, {
      endSpan: { required: true },
      alongside: (db, ended) => this.audit.record(db, { action: 'maintenance.ended', target: target(ended), changes: null }),
    });
    if (!row) throw notFound('maintenance.notFound');
    return this.get(id);
  }

  /** Every span in [from, to): those that happened or run (the log), then those the schedules say are ahead. */
  async calendar(query: CalendarQuery): Promise<Omit<MaintenanceCalendarResponse, 'success'>> {
    const from = new Date(query.from).getTime();
    const to = new Date(query.to).getTime();
    if (!(to > from) || to - from > CALENDAR_DAYS_MAX * DAY_MS) throw badRequest('maintenance.rangeInvalid');
    const now = (await this.windows.now()).getTime();
    const windows = await this.windows.upcoming();
    const appliedEnd = new Map(windows.map((row) => [row.id, row.applied_end && new Date(row.applied_end).toISOString()]));
    const occurrences: MaintenanceCalendarResponse['occurrences'] = (await this.windows.loggedBetween(new Date(from), new Date(to))).map(
      (span) => ({
        id: span.maintenance_id,
        title: span.title,
        start: new Date(span.start_at).toISOString(),
        end: span.end_at ? new Date(span.end_at).toISOString() : (appliedEnd.get(span.maintenance_id) ?? null),
      }),
    );
    for (const row of windows) {
      const schedule = scheduleOf(row);
      const ahead = occurrencesBetween(schedule, Math.max(from, now), to, row.skip_until && new Date(row.skip_until).getTime());
      // What starts after now; the span applied now is in the log already.
      const spans = merge(ahead).filter(
        (span) => span.start > now && (!row.applied_end || span.start >= new Date(row.applied_end).getTime()),
      );
      for (const span of spans.slice(0, CALENDAR_SPANS_MAX)) {
        occurrences.push({
          id: row.id,
          title: row.title,
          start: new Date(span.start).toISOString(),
          end: span.end === null ? null : new Date(span.end).toISOString(),
        });
      }
    }
    occurrences.sort((a, b) => a.start.localeCompare(b.start) || a.id - b.id);
    return { occurrences };
  }

  /**
   * What status page `pageId` shows: its windows applied now, then scheduled (at most MAINTENANCE_LIMITS.upcomingMax),
   * with their descriptions rendered safe and the page's components they cover (`components`: `m<id>`/`a<id>` →
   * name), and a mark on each day of the last `sinceDays` that one of its spans touched. A handful of queries for the
   * whole page, never one per component.
   */
  async forPage(pageId: number, sinceDays: number, components: Map<string, string>): Promise<PageMaintenance> {
    const now = await this.windows.now();
    const windows = await this.windows.upcoming(pageId, MAINTENANCE_LIMITS.upcomingMax);
    const spans = await this.windows.loggedBetween(rangeStart(now, sinceDays), new Date(now.getTime() + 1), pageId);
    const ids = [...new Set([...windows.map((row) => row.id), ...spans.map((span) => span.maintenance_id)])];
    const idsOf = (prefix: string) => [...components.keys()].filter((key) => key.startsWith(prefix)).map((key) => Number(key.slice(1)));
    const covered = new Map<number, Set<string>>(ids.map((id) => [id, new Set()]));
    for (const pair of await monitorCoverage(this.dataSource, idsOf('m'), ids)) covered.get(pair.window_id)!.add(`m${pair.monitor_id}`);
    for (const pair of await agentCoverage(this.dataSource, idsOf('a'), ids)) covered.get(pair.window_id)!.add(`a${pair.agent_id}`);
    return pageMaintenance({ now, sinceDays, components, windows, spans, covered, html: (row) => renderMarkdown(row.description) });
  }

  /** After a save: the window decided now (started or ended by its new schedule), what it covers followed, announced. */
  private async saved(id: number, action: 'created' | 'updated', pagesBefore: number[]): Promise<MaintenanceDto> {
    await this.sweep.settle(id);
    await this.sweep.released();
    const row = await this.windows.findById(id);
    if (!row) throw notFound('maintenance.notFound');
    const [maintenance] = await this.dtos([row]);
    const pages = (await this.windows.pages([id])).get(id)!.map((page) => page.id);
    this.events.emit('maintenance.changed', { action, maintenance, pageIds: [...new Set([...pagesBefore, ...pages])] });
    return maintenance;
  }

  /** Unknown monitors, agents, groups and pages are refused naming the list; answers the pages' ids. */
  private async assertKnown(db: Sql, { scope, pages }: WindowInput): Promise<number[]> {
    if ((await this.windows.firstUnknownMonitor(db, scope.monitors)) !== null) throw badRequest('maintenance.monitorsUnknown');
    if ((await this.windows.firstUnknownAgent(db, scope.agents)) !== null) throw badRequest('maintenance.agentsUnknown');
    if ((await this.windows.firstUnknownMonitor(db, scope.groups, true)) !== null) throw badRequest('maintenance.groupsUnknown');
    const ids = await this.windows.pageIds(pages, db);
    if (ids.size < pages.length) throw badRequest('maintenance.pagesUnknown');
    return [...ids.values()];
  }

  private async dtos(rows: MaintenanceRow[]): Promise<MaintenanceDto[]> {
    const ids = rows.map((row) => row.id);
    const [scopes, pages] = [await this.windows.scopes(ids), await this.windows.pages(ids)];
    return rows.map((row) =>
      toMaintenanceDto(
        row,
        scopes.get(row.id)!,
        pages.get(row.id)!.map((page) => page.slug),
      ),
    );
  }
}

const target = (row: MaintenanceRow) => ({ type: 'maintenance' as const, id: row.id, name: row.title });

/** What the audit log compares: the window's fields, how many of each kind it names (not 100,000 ids), its pages. */
function snapshot(row: MaintenanceRow, scope: MaintenanceScope, pages: string[]): Record<string, unknown> {
  const instant = (value: Date | null) => value && new Date(value).toISOString();
  return {
    title: row.title,
    description: row.description,
    strategy: row.strategy,
    timezone: row.timezone,
    start_at: instant(row.start_at),
    end_at: instant(row.end_at),
    weekdays: row.weekdays,
    days_of_month: row.days_of_month,
    start_time: row.start_time,
    end_time: row.end_time,
    interval_days: row.interval_days,
    cron: row.cron,
    duration_minutes: row.duration_minutes,
    enabled: row.enabled,
    notify: row.notify,
    end_when_healthy_minutes: row.end_when_healthy_minutes,
    all: row.all_targets,
    monitors: scope.monitors.length,
    agents: scope.agents.length,
    groups: scope.groups.length,
    pages,
  };
}
