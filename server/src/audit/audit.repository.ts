import { Injectable } from '@nestjs/common';
import { AUDIT_COUNT_LIMIT, type AuditAction, type AuditChanges, type AuditTargetType } from '@vigil/proto';
import { DataSource } from 'typeorm';
import { execute, queryRow, queryRows, type Sql } from '../database/rows';

/** One entry as stored. */
export interface AuditRow {
  id: string;
  at: Date;
  actor_user_id: number | null;
  actor_username: string | null;
  actor_key_id: number | null;
  ip: string | null;
  action: AuditAction;
  target_type: AuditTargetType | null;
  target_id: string | null;
  target_name: string | null;
  changes: AuditChanges | null;
}

export type NewAuditRow = Omit<AuditRow, 'id' | 'at'>;

export interface AuditFilter {
  actor?: number;
  targetType?: AuditTargetType;
  targetId?: string;
  action?: AuditAction;
  from?: Date;
  to?: Date;
  offset: number;
  limit: number;
}

const COLUMNS = `id::text, at, actor_user_id, actor_username, actor_key_id, ip, action, target_type, target_id, target_name, changes`;

@Injectable()
export class AuditRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Inserts with `db`: the transaction of the change, so the entry commits with it or not at all. */
  async insert(db: Sql, row: NewAuditRow): Promise<void> {
    await execute(
      db,
      `INSERT INTO audit_log (actor_user_id, actor_username, actor_key_id, ip, action, target_type, target_id, target_name, changes)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        row.actor_user_id,
        row.actor_username,
        row.actor_key_id,
        row.ip,
        row.action,
        row.target_type,
        row.target_id,
        row.target_name,
        row.changes === null ? null : JSON.stringify(row.changes),
      ],
    );
  }

  /**
   * Newest first. Every filter has an index ending in (at, id), so a page reads only its rows; the count stops at
   * AUDIT_COUNT_LIMIT + 1 rows, so no page counts a million.
   */
  async page(filter: AuditFilter): Promise<{ rows: AuditRow[]; total: number; capped: boolean }> {
    const where: string[] = [];
    const params: unknown[] = [];
    const add = (sql: string, value: unknown) => {
      params.push(value);
      where.push(sql.replace('?', `$${params.length}`));
    };
    if (filter.actor !== undefined) add('actor_user_id = ?', filter.actor);
    if (filter.targetType !== undefined) add('target_type = ?', filter.targetType);
    if (filter.targetId !== undefined) add('target_id = ?', filter.targetId);
    if (filter.action !== undefined) add('action = ?', filter.action);
    if (filter.from !== undefined) add('at >= ?', filter.from);
    if (filter.to !== undefined) add('at <= ?', filter.to);
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const [counted, rows] = await Promise.all([
      queryRow<{ total: number }>(
        this.dataSource,
        `SELECT count(*)::int AS total FROM (SELECT 1 FROM audit_log ${clause} LIMIT ${AUDIT_COUNT_LIMIT + 1}) AS capped`,
        params,
      ),
      queryRows<AuditRow>(
        this.dataSource,
        `SELECT ${COLUMNS} FROM audit_log ${clause} ORDER BY at DESC, id DESC LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
        [...params, filter.limit, filter.offset],
      ),
    ]);
    const total = counted?.total ?? 0;
    return { rows, total: Math.min(total, AUDIT_COUNT_LIMIT), capped: total > AUDIT_COUNT_LIMIT };
  }

  /** Deletes entries older than `days`, a batch at a time so a first prune of a large table holds no long lock. */
  async prune(days: number): Promise<number> {
    let removed = 0;
    for (;;) {
      const count = await execute(
        this.dataSource,
        `DELETE FROM audit_log WHERE id IN (
           SELECT id FROM audit_log WHERE at < now() - make_interval(days => $1) ORDER BY at LIMIT 10000
         ) RETURNING id`,
        [days],
      );
      removed += count;
      if (count < 10_000) return removed;
    }
  }
}
