import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { renderMarkdown } from '../common/markdown';
import { execute, queryRow, queryRows, type Sql } from '../database/rows';
import type { KumaRow } from './kuma-file';
import type { KumaIncident } from './kuma-schedules';
import { kumaUtc } from './kuma-schedules';

/** Kuma's heartbeat status → ours; pending (2) is a failure still being retried: not a result of its own. */
const STATUSES: Record<number, string> = { 0: 'down', 1: 'up', 3: 'maintenance' };
const BATCH = 5_000;

/** The rows an import writes that the configuration document has no place for: incidents and history. */
@Injectable()
export class KumaImportRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Every monitor's name with its key: a Kuma monitor may not take a name another monitor holds. */
  async monitorNames(): Promise<Map<string, string>> {
    const rows = await queryRows<{ name: string; key: string }>(this.dataSource, 'SELECT name, key FROM monitors ORDER BY id');
    return new Map(rows.map((row) => [row.name, row.key]));
  }

  /** Heartbeats as checks, and their hourly roll-ups, for monitors this import created. */
  async insertHeartbeats(db: Sql, heartbeats: KumaRow[], monitorIds: Map<number, number>): Promise<number> {
    // Mapped a batch at a time: mapping 340,000 rows in one pass held the event loop ~150 ms.
    const ids = new Set<number>();
    let stored = 0;
    for (let i = 0; i < heartbeats.length; i += BATCH) {
      const batch = heartbeats.slice(i, i + BATCH).flatMap((beat) => {
        const monitorId = monitorIds.get(Number(beat.monitor_id));
        const status = STATUSES[Number(beat.status)];
        const at = kumaUtc(beat.time);
        if (!monitorId || !status || !at) return [];
        const ping = Number(beat.ping);
        return [
          {
            monitorId,
            status,
            ping: Number.isFinite(ping) && beat.ping !== null ? Math.round(ping) : null,
            error: status === 'down' ? String(beat.msg ?? '').slice(0, 500) : null,
            at,
          },
        ];
      });
      if (!batch.length) continue;
      for (const row of batch) ids.add(row.monitorId);
      stored += batch.length;
      await execute(
        db,
        `INSERT INTO monitor_checks (monitor_id, status, response_time, error, checked_at)
         SELECT * FROM unnest($1::int[], $2::varchar[], $3::int[], $4::text[], $5::timestamptz[])`,
        [
          batch.map((r) => r.monitorId),
          batch.map((r) => r.status),
          batch.map((r) => r.ping),
          batch.map((r) => r.error),
          batch.map((r) => r.at),
        ],
      );
    }
    if (ids.size) {
      await execute(
        db,
        `INSERT INTO monitor_hourly (monitor_id, hour, checks, up, response_sum, response_count, response_max, maintenance)
         SELECT monitor_id, date_trunc('hour', checked_at), count(*), count(*) FILTER (WHERE status = 'up'),
                COALESCE(sum(response_time), 0), count(response_time), max(response_time), count(*) FILTER (WHERE status = 'maintenance')
         FROM monitor_checks WHERE monitor_id = ANY($1::int[])
         GROUP BY monitor_id, date_trunc('hour', checked_at)
         ON CONFLICT (monitor_id, hour) DO NOTHING`,
        [[...ids]],
      );
    }
    return stored;
  }

  /** Kuma 2.x's daily stats as our daily counts (what a status page's bars read). */
  async insertDays(db: Sql, days: KumaRow[], monitorIds: Map<number, number>): Promise<number> {
    const rows = days.flatMap((day) => {
      const monitorId = monitorIds.get(Number(day.monitor_id));
      const up = Number(day.up);
      const down = Number(day.down);
      if (!monitorId || !Number.isFinite(up) || !Number.isFinite(down)) return [];
      return [{ monitorId, day: new Date(Number(day.timestamp) * 1000).toISOString().slice(0, 10), checks: up + down, up }];
    });
    for (let i = 0; i < rows.length; i += BATCH) {
      const batch = rows.slice(i, i + BATCH);
      await execute(
        db,
        `INSERT INTO monitor_daily (monitor_id, day, checks, up)
         SELECT * FROM unnest($1::int[], $2::date[], $3::int[], $4::int[]) ON CONFLICT (monitor_id, day) DO NOTHING`,
        [batch.map((r) => r.monitorId), batch.map((r) => r.day), batch.map((r) => r.checks), batch.map((r) => r.up)],
      );
    }
    return rows.length;
  }

  /** An incident already imported (same page, title and start) is left alone, so a re-run adds nothing. */
  async insertIncident(db: Sql, incident: KumaIncident, pageId: number): Promise<boolean> {
    const existing = await queryRow<{ id: number }>(
      db,
      `SELECT i.id FROM incidents i JOIN incident_pages p ON p.incident_id = i.id
       WHERE p.page_id = $1 AND i.title = $2 AND i.created_at = $3::timestamptz`,
      [pageId, incident.title, incident.createdAt],
    );
    if (existing) return false;
    const created = await queryRow<{ id: number }>(
      db,
      `INSERT INTO incidents (title, impact, published, created_at, updated_at, resolved_at)
       VALUES ($1, $2, true, $3::timestamptz, COALESCE($4::timestamptz, $3::timestamptz), $4::timestamptz) RETURNING id`,
      [incident.title, incident.impact, incident.createdAt, incident.resolvedAt],
    );
    const id = created!.id;
    await execute(db, 'INSERT INTO incident_pages (incident_id, page_id) VALUES ($1, $2)', [id, pageId]);
    const message = incident.content || incident.title;
    await execute(
      db,
      `INSERT INTO incident_updates (incident_id, status, message, html, created_at) VALUES ($1, 'investigating', $2, $3, $4)`,
      [id, message, renderMarkdown(message), incident.createdAt],
    );
    if (incident.resolvedAt) {
      await execute(
        db,
        `INSERT INTO incident_updates (incident_id, status, message, html, created_at) VALUES ($1, 'resolved', $2, $3, $4)`,
        [id, 'Resolved', renderMarkdown('Resolved'), incident.resolvedAt],
      );
    }
    return true;
  }
}
