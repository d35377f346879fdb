import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { queryRow, queryRows, type Sql } from '../database/rows';

/** A component of a page that has been failing longer than the page's draft delay and no incident tells of yet. */
export interface DraftCandidate {
  page_id: number;
  monitor_id: number | null;
  agent_id: number | null;
  name: string;
  /** When it started failing (its status's last change). */
  since: Date;
}

/**
 * The draft rule, one statement for every page (or one): a component of a page with `draft_after_minutes` — a
 * running monitor `down` or `unreachable`, an agent `inactive` — whose status changed at least that many minutes ago,
 * that no incident of the page names unless it is resolved and was opened before this outage began (a resolved or
 * published incident of this outage, or a draft an operator resolved, keeps it from opening again).
 */
const CANDIDATES = `
  SELECT p.id AS page_id, c.monitor_id, c.agent_id, coalesce(m.name, a.name) AS name,
         coalesce(m.status_changed_at, a.status_changed_at) AS since
  FROM status_pages p
  JOIN status_page_components c ON c.page_id = p.id
  LEFT JOIN monitors m ON m.id = c.monitor_id AND m.active AND m.status IN ('down', 'unreachable')
  LEFT JOIN agents a ON a.id = c.agent_id AND a.status = 'inactive'
  WHERE p.draft_after_minutes IS NOT NULL AND (m.id IS NOT NULL OR a.id IS NOT NULL)
    AND coalesce(m.status_changed_at, a.status_changed_at) <= now() - make_interval(secs => p.draft_after_minutes * $1::float8 / 1000)
    AND NOT EXISTS (
      SELECT 1 FROM incident_components ic
      JOIN incident_pages ip ON ip.incident_id = ic.incident_id AND ip.page_id = p.id
      JOIN incidents i ON i.id = ic.incident_id
      WHERE ic.monitor_id = m.id AND (i.resolved_at IS NULL OR i.created_at >= m.status_changed_at))
    AND NOT EXISTS (
      SELECT 1 FROM incident_components ic
      JOIN incident_pages ip ON ip.incident_id = ic.incident_id AND ip.page_id = p.id
      JOIN incidents i ON i.id = ic.incident_id
      WHERE ic.agent_id = a.id AND (i.resolved_at IS NULL OR i.created_at >= a.status_changed_at))`;

@Injectable()
export class IncidentDraftsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Pages with at least one candidate now: a cheap look before any lock is taken. */
  async pagesWithCandidates(minuteMs: number): Promise<number[]> {
    const rows = await queryRows<{ page_id: number }>(
      this.dataSource,
      `SELECT DISTINCT page_id FROM (${CANDIDATES}) candidates ORDER BY page_id`,
      [minuteMs],
    );
    return rows.map((row) => row.page_id);
  }

  /**
   * Takes the page for this sweep: false when another instance holds it (it is opening the page's draft) or the page
   * no longer opens drafts. Does not block the foreign keys of incidents being written to the page meanwhile.
   */
  async lockPage(db: Sql, pageId: number): Promise<boolean> {
    const row = await queryRow<{ id: number }>(
      db,
      `SELECT id FROM status_pages WHERE id = $1 AND draft_after_minutes IS NOT NULL FOR NO KEY UPDATE SKIP LOCKED`,
      [pageId],
    );
    return row !== null;
  }

  /** The page's candidates, read again under its lock, in the page's order. */
  candidates(db: Sql, pageId: number, minuteMs: number): Promise<DraftCandidate[]> {
    return queryRows<DraftCandidate>(db, `${CANDIDATES} AND p.id = $2 ORDER BY c.group_position, c.position`, [minuteMs, pageId]);
  }
}
