import { Injectable } from '@nestjs/common';
import type { IncidentImpact, IncidentStatus } from '@vigil/proto';
import { DataSource } from 'typeorm';
import { execute, queryRow, queryRows, type Sql } from '../database/rows';
import type { IncidentState } from './incidents.dto';

/** An incident as read: its newest update's status and its lists resolved (page slugs and ids). */
export interface IncidentRow {
  id: number;
  title: string;
  impact: IncidentImpact;
  status: IncidentStatus;
  published: boolean;
  monitors: number[];
  agents: number[];
  /** Slugs of its pages, and their ids in the same order. */
  pages: string[];
  page_ids: number[];
  created_at: Date;
  updated_at: Date;
  resolved_at: Date | null;
}

export interface IncidentUpdateRow {
  id: number;
  incident_id: number;
  status: IncidentStatus;
  message: string;
  html: string;
  author: string | null;
  created_at: Date;
}

/** What an incident row holds of its own (its timeline and lists are written apart). */
export interface IncidentFields {
  title: string;
  impact: IncidentImpact;
  published: boolean;
}

export interface NewUpdate {
  status: IncidentStatus;
  message: string;
  html: string;
  authorId: number | null;
}

const STATE: Record<IncidentState, string> = {
  active: 'i.published AND i.resolved_at IS NULL',
  resolved: 'i.published AND i.resolved_at IS NOT NULL',
  draft: 'NOT i.published',
  all: 'true',
};

/** Every incident column the reads map, `i` being the incident. */
export const INCIDENT_COLUMNS = `i.id, i.title, i.impact, i.published, i.created_at, i.updated_at, i.resolved_at,
  coalesce((SELECT u.status FROM incident_updates u WHERE u.incident_id = i.id ORDER BY u.created_at DESC, u.id DESC LIMIT 1),
           'investigating') AS status,
  ARRAY(SELECT c.monitor_id FROM incident_components c WHERE c.incident_id = i.id AND c.monitor_id IS NOT NULL ORDER BY 1) AS monitors,
  ARRAY(SELECT c.agent_id FROM incident_components c WHERE c.incident_id = i.id AND c.agent_id IS NOT NULL ORDER BY 1) AS agents`;
const PAGE_COLUMNS = `
  ARRAY(SELECT p.slug FROM incident_pages ip JOIN status_pages p ON p.id = ip.page_id WHERE ip.incident_id = i.id ORDER BY p.slug) AS pages,
  ARRAY(SELECT p.id FROM incident_pages ip JOIN status_pages p ON p.id = ip.page_id WHERE ip.incident_id = i.id ORDER BY p.slug) AS page_ids`;

const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Incidents, their timelines, pages and components. */
@Injectable()
export class IncidentsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async page(filter: {
    state: IncidentState;
    search?: string;
    limit: number;
    offset: number;
  }): Promise<{ rows: IncidentRow[]; total: number }> {
    const params: unknown[] = [];
    const where = [STATE[filter.state]];
    if (filter.search) {
      params.push(likePattern(filter.search));
      where.push(`i.title ILIKE $${params.length}`);
    }
    const condition = where.join(' AND ');
    const [{ total }] = await queryRows<{ total: number }>(
      this.dataSource,
      `SELECT count(*)::int AS total FROM incidents i WHERE ${condition}`,
      params,
    );
    const rows = await queryRows<IncidentRow>(
      this.dataSource,
      `SELECT ${INCIDENT_COLUMNS}, ${PAGE_COLUMNS} FROM incidents i WHERE ${condition}
       ORDER BY i.created_at DESC, i.id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, filter.limit, filter.offset],
    );
    return { rows, total };
  }

  get(id: number, db: Sql = this.dataSource): Promise<IncidentRow | null> {
    return queryRow<IncidentRow>(db, `SELECT ${INCIDENT_COLUMNS}, ${PAGE_COLUMNS} FROM incidents i WHERE i.id = $1`, [id]);
  }

  /** The incident read under its row lock, so concurrent edits of one incident apply one after the other. */
  forUpdate(db: Sql, id: number): Promise<IncidentRow | null> {
    return queryRow<IncidentRow>(db, `SELECT ${INCIDENT_COLUMNS}, ${PAGE_COLUMNS} FROM incidents i WHERE i.id = $1 FOR UPDATE OF i`, [id]);
  }

  /** The timelines of these incidents, oldest first, in one statement. */
  async updatesOf(ids: number[], db: Sql = this.dataSource): Promise<Map<number, IncidentUpdateRow[]>> {
    const rows = await queryRows<IncidentUpdateRow>(
      db,
      `SELECT u.id, u.incident_id, u.status, u.message, u.html, us.username AS author, u.created_at
       FROM incident_updates u LEFT JOIN users us ON us.id = u.author_id
       WHERE u.incident_id = ANY($1::int[]) ORDER BY u.created_at, u.id`,
      [ids],
    );
    const byIncident = new Map<number, IncidentUpdateRow[]>();
    for (const row of rows) byIncident.set(row.incident_id, [...(byIncident.get(row.incident_id) ?? []), row]);
    return byIncident;
  }

  async insert(db: Sql, fields: IncidentFields, createdBy: number | null, draftPageId: number | null = null): Promise<number> {
    const row = await queryRow<{ id: number }>(
      db,
      `INSERT INTO incidents (title, impact, published, created_by, draft_page_id) VALUES ($1, $2, $3, $4, $5) RETURNING id`,
      [fields.title, fields.impact, fields.published, createdBy, draftPageId],
    );
    return row!.id;
  }

  async save(db: Sql, id: number, fields: IncidentFields): Promise<void> {
    await execute(db, `UPDATE incidents SET title = $2, impact = $3, published = $4, updated_at = now() WHERE id = $1`, [
      id,
      fields.title,
      fields.impact,
      fields.published,
    ]);
  }

  /**
   * Appends an update. `resolved` resolves the incident (the first resolution's time is kept), any other status
   * reopens it: the incident's state follows its newest update.
   */
  async addUpdate(db: Sql, id: number, update: NewUpdate): Promise<void> {
    await execute(db, `INSERT INTO incident_updates (incident_id, status, message, html, author_id) VALUES ($1, $2, $3, $4, $5)`, [
      id,
      update.status,
      update.message,
      update.html,
      update.authorId,
    ]);
    await execute(
      db,
      `UPDATE incidents SET updated_at = now(),
         resolved_at = CASE WHEN $2 = 'resolved' THEN coalesce(resolved_at, now()) ELSE NULL END
       WHERE id = $1`,
      [id, update.status],
    );
  }

  async setPages(db: Sql, id: number, pageIds: number[]): Promise<void> {
    await execute(db, `DELETE FROM incident_pages WHERE incident_id = $1`, [id]);
    await execute(db, `INSERT INTO incident_pages (incident_id, page_id) SELECT $1::int, unnest($2::int[])`, [id, pageIds]);
  }

  /** Replaces the named monitors and agents; one deleted meanwhile is left out rather than failing the save. */
  async setComponents(db: Sql, id: number, monitors: number[], agents: number[]): Promise<void> {
    await execute(db, `DELETE FROM incident_components WHERE incident_id = $1`, [id]);
    await execute(
      db,
      `INSERT INTO incident_components (incident_id, monitor_id, agent_id)
       SELECT $1::int, m.id, NULL::int FROM monitors m WHERE m.id = ANY($2::int[])
       UNION ALL SELECT $1::int, NULL::int, a.id FROM agents a WHERE a.id = ANY($3::int[])`,
      [id, monitors, agents],
    );
  }

  async delete(db: Sql, id: number): Promise<void> {
    await execute(db, `DELETE FROM incidents WHERE id = $1`, [id]);
  }

  /** Page ids by slug, for the slugs that exist. */
  async pagesBySlug(slugs: string[], db: Sql = this.dataSource): Promise<Map<string, number>> {
    const rows = await queryRows<{ id: number; slug: string }>(db, `SELECT id, slug FROM status_pages WHERE slug = ANY($1::text[])`, [
      slugs,
    ]);
    return new Map(rows.map((row) => [row.slug, row.id]));
  }

  /** Which of these ids are missing from `monitors` or `agents`. */
  async missing(db: Sql, table: 'monitors' | 'agents', ids: number[]): Promise<number[]> {
    if (!ids.length) return [];
    const rows = await queryRows<{ id: number }>(
      db,
      `SELECT wanted.id FROM unnest($1::int[]) AS wanted(id) WHERE NOT EXISTS (SELECT 1 FROM ${table} t WHERE t.id = wanted.id)`,
      [ids],
    );
    return rows.map((row) => row.id);
  }

  /**
   * A page's published incidents a visitor sees: the unresolved ones and those resolved since `since`, newest first,
   * at most `limit` of the resolved (a page's history is bounded; the unresolved are all shown).
   */
  forPage(pageId: number, since: Date, limit: number): Promise<IncidentRow[]> {
    return queryRows<IncidentRow>(
      this.dataSource,
      `(SELECT ${INCIDENT_COLUMNS}, ARRAY[]::text[] AS pages, ARRAY[]::int[] AS page_ids
        FROM incidents i JOIN incident_pages ip ON ip.incident_id = i.id AND ip.page_id = $1
        WHERE i.published AND i.resolved_at IS NULL)
       UNION ALL
       (SELECT ${INCIDENT_COLUMNS}, ARRAY[]::text[], ARRAY[]::int[]
        FROM incidents i JOIN incident_pages ip ON ip.incident_id = i.id AND ip.page_id = $1
        WHERE i.published AND i.resolved_at >= $2
        ORDER BY i.created_at DESC, i.id DESC LIMIT $3)`,
      [pageId, since, limit],
    );
  }
}
