import { Injectable } from '@nestjs/common';
import { PAGE_SIZE_DEFAULT, type IncidentDto, type IncidentsResponse } from '@vigil/proto';
import type { EntityManager } from 'typeorm';
import { AuditLog, type AuditEntry } from '../audit/audit-log.service';
import { changesOf } from '../audit/audit-changes';
import { badRequest, notFound } from '../common/api-exception';
import type { AuthUser } from '../common/decorators';
import { renderMarkdown } from '../common/markdown';
import { DomainEvents } from '../events/domain-events.service';
import { assemblePageIncidents, rangeStart, toIncidentDto, type PageIncidents } from './incident-page';
import { AddIncidentUpdateDto, CreateIncidentDto, IncidentsQuery, SaveIncidentDto } from './incidents.dto';
import { IncidentsRepository, type IncidentRow } from './incidents.repository';

/** Resolved incidents a page shows at most (its unresolved ones are all shown). */
export const PAGE_HISTORY_MAX = 100;

const snapshot = (row: IncidentRow) => ({
  title: row.title,
  impact: row.impact,
  published: row.published,
  monitors: row.monitors,
  agents: row.agents,
  pages: row.pages,
});

const target = (row: Pick<IncidentRow, 'id' | 'title'>): AuditEntry['target'] => ({ type: 'incident', id: row.id, name: row.title });

/** Pages whose public data an incident is part of: those of its published states, before and after a change. */
function pagesTouched(...states: Array<IncidentRow | null>): number[] {
  return [...new Set(states.flatMap((state) => (state?.published ? state.page_ids : [])))];
}

/**
 * Incidents: operators write them (title, impact, the monitors and agents they name, the pages they appear on) and
 * tell their story as a timeline of updates, whose newest status is the incident's. Every change is audited and,
 * after the commit, raised as `incident.changed` with the pages whose data changed.
 */
@Injectable()
export class IncidentsService {
  constructor(
    private readonly incidents: IncidentsRepository,
    private readonly audit: AuditLog,
    private readonly events: DomainEvents,
  ) {}

  async list(query: IncidentsQuery): Promise<Omit<IncidentsResponse, 'success'>> {
    const page = query.page ?? 1;
    const pageSize = query.pageSize ?? PAGE_SIZE_DEFAULT;
    const { rows, total } = await this.incidents.page({
      state: query.state ?? 'all',
      search: query.search?.trim() || undefined,
      limit: pageSize,
      offset: (page - 1) * pageSize,
    });
    // One statement for the whole page's timelines.
    const updates = await this.incidents.updatesOf(rows.map((row) => row.id));
    return { incidents: rows.map((row) => toIncidentDto(row, updates.get(row.id) ?? [])), total, page, pageSize };
  }

  async get(id: number): Promise<IncidentDto> {
    const row = await this.incidents.get(id);
    if (!row) throw notFound('incidents.notFound');
    return this.dto(row);
  }

  async create(body: CreateIncidentDto, user: AuthUser): Promise<IncidentDto> {
    const after = await this.audit.transaction(async (db, record) => {
      const pageIds = await this.pageIds(db, body.pages ?? []);
      const monitors = await this.known(db, 'monitors', body.monitors);
      const agents = await this.known(db, 'agents', body.agents);
      const id = await this.incidents.insert(db, { title: body.title, impact: body.impact, published: body.published ?? true }, user.id);
      await this.incidents.addUpdate(db, id, this.update(body.status ?? 'investigating', body.message, user));
      await this.incidents.setPages(db, id, pageIds);
      await this.incidents.setComponents(db, id, monitors, agents);
      const row = (await this.incidents.get(id, db))!;
      await record({ action: 'incident.created', target: target(row), changes: changesOf(null, snapshot(row)) });
      return row;
    });
    return this.announce('created', after, null);
  }

  async save(id: number, body: SaveIncidentDto): Promise<IncidentDto> {
    const { before, after } = await this.audit.transaction(async (db, record) => {
      const before = await this.incidents.forUpdate(db, id);
      if (!before) throw notFound('incidents.notFound');
      const published = body.published ?? before.published;
      await this.incidents.save(db, id, { title: body.title, impact: body.impact, published });
      if (body.pages) await this.incidents.setPages(db, id, await this.pageIds(db, body.pages));
      if (body.monitors || body.agents) {
        await this.incidents.setComponents(
          db,
          id,
          body.monitors ? await this.known(db, 'monitors', body.monitors) : before.monitors,
          body.agents ? await this.known(db, 'agents', body.agents) : before.agents,
        );
      }
      const after = (await this.incidents.get(id, db))!;
      await record({ action: 'incident.updated', target: target(after), changes: changesOf(snapshot(before), snapshot(after)) });
      return { before, after };
    });
    return this.announce('updated', after, before);
  }

  async addUpdate(id: number, body: AddIncidentUpdateDto, user: AuthUser): Promise<IncidentDto> {
    const { before, after } = await this.audit.transaction(async (db, record) => {
      const before = await this.incidents.forUpdate(db, id);
      if (!before) throw notFound('incidents.notFound');
      await this.incidents.addUpdate(db, id, this.update(body.status, body.message, user));
      const after = (await this.incidents.get(id, db))!;
      await record({
        action: 'incident.update_posted',
        target: target(after),
        changes: { status: { before: before.status, after: body.status } },
      });
      return { before, after };
    });
    return this.announce('updated', after, before);
  }

  async remove(id: number): Promise<void> {
    const before = await this.audit.transaction(async (db, record) => {
      const row = await this.incidents.forUpdate(db, id);
      if (!row) throw notFound('incidents.notFound');
      const dto = await this.dto(row, db);
      await this.incidents.delete(db, id);
      await record({ action: 'incident.deleted', target: target(row), changes: changesOf(snapshot(row), null) });
      return { row, dto };
    });
    this.events.emit('incident.changed', { action: 'deleted', incident: before.dto, pageIds: pagesTouched(before.row) });
  }

  /**
   * What a status page shows of its incidents (StatusPageData's `incidents`, `history`, `marks`): two statements for
   * the whole page. `components`: the page's components, key (`m12`, `a3`) → name; `sinceDays`: its range.
   */
  async forPage(pageId: number, sinceDays: number, components: Map<string, string>, now = new Date()): Promise<PageIncidents> {
    const rows = await this.incidents.forPage(pageId, rangeStart(now, sinceDays), PAGE_HISTORY_MAX);
    const updates = await this.incidents.updatesOf(rows.map((row) => row.id));
    return assemblePageIncidents(rows, updates, components, sinceDays, now);
  }

  private async dto(row: IncidentRow, db?: EntityManager): Promise<IncidentDto> {
    const updates = await this.incidents.updatesOf([row.id], db);
    return toIncidentDto(row, updates.get(row.id) ?? []);
  }

  private async announce(action: 'created' | 'updated', after: IncidentRow, before: IncidentRow | null): Promise<IncidentDto> {
    const incident = await this.dto(after);
    this.events.emit('incident.changed', { action, incident, pageIds: pagesTouched(before, after) });
    return incident;
  }

  private update(status: AddIncidentUpdateDto['status'], message: string, user: AuthUser) {
    return { status, message, html: renderMarkdown(message), authorId: user.id };
  }

  /** Ids of the named pages; an unknown slug is the request's error. */
  private async pageIds(db: EntityManager, slugs: string[]): Promise<number[]> {
    const wanted = [...new Set(slugs)];
    const found = await this.incidents.pagesBySlug(wanted, db);
    if (found.size !== wanted.length) throw badRequest('incidents.pagesUnknown');
    return [...found.values()];
  }

  /** The ids without duplicates; an id of no monitor (agent) is the request's error. */
  private async known(db: EntityManager, table: 'monitors' | 'agents', ids: number[] = []): Promise<number[]> {
    const wanted = [...new Set(ids)];
    if ((await this.incidents.missing(db, table, wanted)).length) {
      throw badRequest(table === 'monitors' ? 'incidents.monitorsUnknown' : 'incidents.agentsUnknown');
    }
    return wanted;
  }
}
