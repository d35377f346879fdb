import { Injectable } from '@nestjs/common';
import type { MaintenancePhase, MaintenanceScope } from '@vigil/proto';
import { DataSource, QueryFailedError } from 'typeorm';
import { conflict } from '../common/api-exception';
import { execute, queryRow, queryRows, type Sql } from '../database/rows';
import type { MaintenanceFields, MaintenanceRow, MaintenanceState } from './maintenance.types';

/** Each phase as a condition on `maintenance` (window-state.ts `phaseOf` reads the same columns). */
const PHASES: Record<MaintenancePhase, string> = {
  active: 'enabled AND applied_start IS NOT NULL',
  scheduled: 'enabled AND applied_start IS NULL AND next_start IS NOT NULL',
  ended: 'enabled AND applied_start IS NULL AND next_start IS NULL',
  paused: 'NOT enabled',
};

const FIELDS: Array<keyof MaintenanceFields> = [
  'title',
  'description',
  'strategy',
  'timezone',
  'start_at',
  'end_at',
  'weekdays',
  'days_of_month',
  'start_time',
  'end_time',
  'interval_days',
  'cron',
  'duration_minutes',
  'enabled',
  'notify',
  'end_when_healthy_minutes',
  'all_targets',
];

/**
 * The advisory lock every transaction that changes what the windows cover takes first (a span starting or ending, a
 * save, a delete, the sweep's catch-up): what one reads as covered cannot be changed by another before it writes.
 */
const COVERAGE_LOCK = 7_317_003;

/** A value as the driver takes it: `days_of_month` is jsonb. */
const param = (key: keyof MaintenanceFields, value: unknown) => (key === 'days_of_month' ? JSON.stringify(value) : value);

export interface ListQuery {
  offset: number;
  limit: number;
  phase?: MaintenancePhase;
  /** Only these windows (those covering a monitor or an agent). */
  ids?: number[];
}

/** One span that happened (or runs: `end_at` null), with its window's title. */
export interface LoggedSpan {
  maintenance_id: number;
  title: string;
  start_at: Date;
  end_at: Date | null;
}

/** The only code that touches the maintenance tables. */
@Injectable()
export class MaintenanceRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** The database's clock (the transaction's start inside one): every instance decides on the same time. */
  async now(db: Sql = this.dataSource): Promise<Date> {
    return (await queryRow<{ now: Date }>(db, `SELECT now() AS now`))!.now;
  }

  /** Waits for the coverage lock, held until `db`'s transaction ends. */
  async serialize(db: Sql): Promise<void> {
    await execute(db, `SELECT pg_advisory_xact_lock($1)`, [COVERAGE_LOCK]);
  }

  async insert(db: Sql, fields: MaintenanceFields): Promise<MaintenanceRow> {
    const row = await queryRow<MaintenanceRow>(
      db,
      `INSERT INTO maintenance (${FIELDS.join(', ')}) VALUES (${FIELDS.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING *`,
      FIELDS.map((key) => param(key, fields[key])),
    );
    return row!;
  }

  /** A save replaces the schedule: the span ended early no longer applies to it. */
  update(db: Sql, id: number, fields: MaintenanceFields): Promise<MaintenanceRow | null> {
    const sets = FIELDS.map((key, i) => `${key} = $${i + 2}`).join(', ');
    return queryRow<MaintenanceRow>(db, `UPDATE maintenance SET ${sets}, skip_until = NULL, updated_at = now() WHERE id = $1 RETURNING *`, [
      id,
      ...FIELDS.map((key) => param(key, fields[key])),
    ]);
  }

  /** Gives the window the key asked for (absent: the one it has); a key another window has is a 409. */
  async setKey(db: Sql, id: number, key: string | undefined): Promise<void> {
    if (key === undefined) return;
    await execute(db, `UPDATE maintenance SET key = $2 WHERE id = $1 AND key <> $2`, [id, key]).catch((error: unknown) => {
      const failure = error instanceof QueryFailedError ? (error.driverError as { code?: string; constraint?: string }) : null;
      if (failure?.code === '23505' && failure.constraint === 'maintenance_key_unique') throw conflict('maintenance.keyTaken');
      throw error;
    });
  }

  delete(db: Sql, id: number): Promise<MaintenanceRow | null> {
    return queryRow<MaintenanceRow>(db, `DELETE FROM maintenance WHERE id = $1 RETURNING *`, [id]);
  }

  findById(id: number, db: Sql = this.dataSource): Promise<MaintenanceRow | null> {
    return queryRow<MaintenanceRow>(db, `SELECT * FROM maintenance WHERE id = $1`, [id]);
  }

  /** The row locked until `db`'s transaction ends; with `skipLocked`, null while another holds it (another instance's sweep). */
  lock(db: Sql, id: number, skipLocked = false): Promise<MaintenanceRow | null> {
    return queryRow<MaintenanceRow>(db, `SELECT * FROM maintenance WHERE id = $1 FOR UPDATE${skipLocked ? ' SKIP LOCKED' : ''}`, [id]);
  }

  /** Windows the sweep looks at: switched on, or still applied (switched off since). */
  sweepable(): Promise<MaintenanceRow[]> {
    return queryRows<MaintenanceRow>(this.dataSource, `SELECT * FROM maintenance WHERE enabled OR applied_start IS NOT NULL ORDER BY id`);
  }

  /** Windows applied now that end themselves once their monitors are healthy. */
  endingWhenHealthy(): Promise<MaintenanceRow[]> {
    return queryRows<MaintenanceRow>(
      this.dataSource,
      `SELECT * FROM maintenance WHERE applied_start IS NOT NULL AND end_when_healthy_minutes IS NOT NULL ORDER BY id`,
    );
  }

  async setState(db: Sql, id: number, state: Partial<MaintenanceState> & { applied_at?: Date | null }): Promise<MaintenanceRow> {
    const entries = Object.entries(state);
    const row = await queryRow<MaintenanceRow>(
      db,
      `UPDATE maintenance SET ${entries.map(([key], i) => `${key} = $${i + 2}`).join(', ')} WHERE id = $1 RETURNING *`,
      [id, ...entries.map(([, value]) => value)],
    );
    return row!;
  }

  /** A page of windows: active first, then scheduled by next start, then the rest (newest first). */
  async list(query: ListQuery): Promise<{ rows: MaintenanceRow[]; total: number }> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (query.phase) where.push(PHASES[query.phase]);
    if (query.ids) {
      params.push(query.ids);
      where.push(`id = ANY($${params.length}::int[])`);
    }
    const condition = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const [{ total }] = await queryRows<{ total: number }>(
      this.dataSource,
      `SELECT count(*)::int AS total FROM maintenance ${condition}`,
      params,
    );
    const rows = await queryRows<MaintenanceRow>(
      this.dataSource,
      `SELECT * FROM maintenance ${condition}
       ORDER BY (${PHASES.active}) DESC, (${PHASES.scheduled}) DESC, next_start NULLS LAST, id DESC
       OFFSET $${params.length + 1} LIMIT $${params.length + 2}`,
      [...params, query.offset, query.limit],
    );
    return { rows, total };
  }

  /** Replaces what a window covers (its `all` is a column of the row). */
  async setScope(db: Sql, id: number, scope: MaintenanceScope): Promise<void> {
    await execute(db, `DELETE FROM maintenance_targets WHERE maintenance_id = $1`, [id]);
    const kinds = [...scope.monitors.map(() => 'monitor'), ...scope.groups.map(() => 'group'), ...scope.agents.map(() => 'agent')];
    if (!kinds.length) return;
    await execute(
      db,
      `INSERT INTO maintenance_targets (maintenance_id, kind, monitor_id, agent_id)
       SELECT $1, t.kind, CASE WHEN t.kind = 'agent' THEN NULL ELSE t.id END, CASE WHEN t.kind = 'agent' THEN t.id END
       FROM unnest($2::varchar[], $3::int[]) AS t(kind, id)
       ON CONFLICT DO NOTHING`,
      [id, kinds, [...scope.monitors, ...scope.groups, ...scope.agents]],
    );
  }

  /** What each window names (`all` is left false: the row carries it). */
  async scopes(ids: number[], db: Sql = this.dataSource): Promise<Map<number, MaintenanceScope>> {
    const result = new Map<number, MaintenanceScope>(ids.map((id) => [id, { all: false, monitors: [], agents: [], groups: [] }]));
    if (!ids.length) return result;
    const rows = await queryRows<{ maintenance_id: number; kind: 'monitor' | 'group' | 'agent'; id: number }>(
      db,
      `SELECT maintenance_id, kind, coalesce(monitor_id, agent_id) AS id FROM maintenance_targets
       WHERE maintenance_id = ANY($1::int[]) ORDER BY maintenance_id, kind, 3`,
      [ids],
    );
    const lists = { monitor: 'monitors', group: 'groups', agent: 'agents' } as const;
    for (const row of rows) result.get(row.maintenance_id)![lists[row.kind]].push(row.id);
    return result;
  }

  async setPages(db: Sql, id: number, pageIds: number[]): Promise<void> {
    await execute(db, `DELETE FROM maintenance_pages WHERE maintenance_id = $1`, [id]);
    if (pageIds.length)
      await execute(db, `INSERT INTO maintenance_pages (maintenance_id, page_id) SELECT $1, unnest($2::int[]) ON CONFLICT DO NOTHING`, [
        id,
        pageIds,
      ]);
  }

  /** The pages showing each window: slugs (for reads) and ids (for the pages' rooms and projections). */
  async pages(ids: number[], db: Sql = this.dataSource): Promise<Map<number, Array<{ id: number; slug: string }>>> {
    const result = new Map<number, Array<{ id: number; slug: string }>>(ids.map((id) => [id, []]));
    if (!ids.length) return result;
    const rows = await queryRows<{ maintenance_id: number; id: number; slug: string }>(
      db,
      `SELECT mp.maintenance_id, p.id, p.slug FROM maintenance_pages mp JOIN status_pages p ON p.id = mp.page_id
       WHERE mp.maintenance_id = ANY($1::int[]) ORDER BY p.slug`,
      [ids],
    );
    for (const row of rows) result.get(row.maintenance_id)!.push({ id: row.id, slug: row.slug });
    return result;
  }

  /** Page ids by slug; a slug no page has is left out. */
  async pageIds(slugs: string[], db: Sql = this.dataSource): Promise<Map<string, number>> {
    if (!slugs.length) return new Map();
    const rows = await queryRows<{ id: number; slug: string }>(db, `SELECT id, slug FROM status_pages WHERE slug = ANY($1::text[])`, [
      slugs,
    ]);
    return new Map(rows.map((row) => [row.slug, row.id]));
  }

  /** The first of `ids` that names no monitor (with `groupsOnly`: no group monitor), or null. */
  async firstUnknownMonitor(db: Sql, ids: number[], groupsOnly = false): Promise<number | null> {
    if (!ids.length) return null;
    const row = await queryRow<{ id: number }>(
      db,
      `SELECT u.id FROM unnest($1::int[]) AS u(id)
       WHERE NOT EXISTS (SELECT 1 FROM monitors m WHERE m.id = u.id${groupsOnly ? ` AND m.type = 'group'` : ''}) LIMIT 1`,
      [ids],
    );
    return row?.id ?? null;
  }

  async firstUnknownAgent(db: Sql, ids: number[]): Promise<number | null> {
    if (!ids.length) return null;
    const row = await queryRow<{ id: number }>(
      db,
      `SELECT u.id FROM unnest($1::int[]) AS u(id) WHERE NOT EXISTS (SELECT 1 FROM agents a WHERE a.id = u.id) LIMIT 1`,
      [ids],
    );
    return row?.id ?? null;
  }

  /** Logs a span as it starts (a span logged already is kept: the log holds what happened once). */
  async logStart(db: Sql, id: number, start: Date): Promise<void> {
    await execute(db, `INSERT INTO maintenance_occurrences (maintenance_id, start_at) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [id, start]);
  }

  async logEnd(db: Sql, id: number, end: Date): Promise<void> {
    await execute(db, `UPDATE maintenance_occurrences SET end_at = $2 WHERE maintenance_id = $1 AND end_at IS NULL`, [id, end]);
  }

  /** Spans that happened (or run) within [from, to), of every window or of one page's. */
  loggedBetween(from: Date, to: Date, pageId?: number): Promise<LoggedSpan[]> {
    const page =
      pageId === undefined ? '' : 'AND EXISTS (SELECT 1 FROM maintenance_pages mp WHERE mp.maintenance_id = m.id AND mp.page_id = $3)';
    return queryRows<LoggedSpan>(
      this.dataSource,
      `SELECT o.maintenance_id, m.title, o.start_at, o.end_at FROM maintenance_occurrences o JOIN maintenance m ON m.id = o.maintenance_id
       WHERE o.start_at < $2 AND coalesce(o.end_at, 'infinity') > $1 ${page}
       ORDER BY o.start_at, o.maintenance_id`,
      pageId === undefined ? [from, to] : [from, to, pageId],
    );
  }

  /** Switched-on windows with a span now or ahead (the calendar expands their schedules). */
  upcoming(pageId?: number, limit?: number): Promise<MaintenanceRow[]> {
    const params: unknown[] = [];
    let page = '';
    if (pageId !== undefined) {
      params.push(pageId);
      page = `AND EXISTS (SELECT 1 FROM maintenance_pages mp WHERE mp.maintenance_id = maintenance.id AND mp.page_id = $1)`;
    }
    if (limit !== undefined) params.push(limit);
    return queryRows<MaintenanceRow>(
      this.dataSource,
      `SELECT * FROM maintenance WHERE enabled AND (applied_start IS NOT NULL OR next_start IS NOT NULL) ${page}
       ORDER BY applied_start IS NULL, coalesce(applied_start, next_start), id ${limit === undefined ? '' : `LIMIT $${params.length}`}`,
      params,
    );
  }

  /**
   * How the checked monitors among `ids` stand since a window was applied: how many there are, how many passed their
   * last check (taken since `since`), and the newest check since then that failed (an error: down or degraded).
   */
  async health(
    ids: number[],
    since: Date,
    db: Sql = this.dataSource,
  ): Promise<{ monitors: number; passing: number; lastFailure: Date | null }> {
    const row = await queryRow<{ monitors: number; passing: number; last_failure: Date | null }>(
      db,
      `SELECT count(*)::int AS monitors,
              count(*) FILTER (WHERE m.consecutive_failures = 0 AND m.last_checked >= $2)::int AS passing,
              max(f.at) AS last_failure
       FROM monitors m
       LEFT JOIN LATERAL (
         SELECT max(c.checked_at) AS at FROM monitor_checks c WHERE c.monitor_id = m.id AND c.checked_at >= $2 AND c.error IS NOT NULL
       ) f ON true
       WHERE m.id = ANY($1::int[]) AND m.active AND m.type <> 'group'`,
      [ids, since],
    );
    return { monitors: row!.monitors, passing: row!.passing, lastFailure: row!.last_failure };
  }

  /** Every checked monitor's id (the windows covering all of them are read from these). */
  async checkedMonitorIds(db: Sql = this.dataSource): Promise<number[]> {
    return (await queryRows<{ id: number }>(db, `SELECT id FROM monitors WHERE active AND type <> 'group' ORDER BY id`)).map((r) => r.id);
  }
}
