import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { locationAgentId, SERVER_LOCATION, type LocationId } from '@vigil/proto';
import { queryRows, type Sql } from '../../database/rows';
import type { LocationResult } from './quorum';

/** One result of one location, as stored. */
export interface LocationCheck extends LocationResult {
  monitorId: number;
  location: LocationId;
  statusCode: number | null;
}

/** What the verdict and the read need of a monitor's locations: their last results, agents' names and presence. */
export interface LocationContext {
  results: Map<LocationId, LocationResult & { statusCode: number | null }>;
  online: Set<number>;
  names: Map<LocationId, string>;
}

interface LatestRow {
  location: LocationId;
  status: LocationResult['status'];
  status_code: number | null;
  response_time: number | null;
  error: string | null;
  checked_at: Date;
}

/** `monitor_locations` (the last result per monitor and location) and `location_checks` (every result). */
@Injectable()
export class LocationsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Stores a batch in one statement per table: every result in the history, and each monitor's location moved to
   * its newest result (an older one arriving late, from an agent's backlog, never overwrites a newer one). Results
   * of deleted monitors are left out. Answers the results stored.
   */
  async store(checks: LocationCheck[], db: Sql = this.dataSource): Promise<LocationCheck[]> {
    if (!checks.length) return [];
    const columns = {
      monitor: checks.map((c) => c.monitorId),
      location: checks.map((c) => c.location),
      status: checks.map((c) => c.status),
      code: checks.map((c) => c.statusCode),
      latency: checks.map((c) => c.responseTime),
      error: checks.map((c) => c.error),
      at: checks.map((c) => c.checkedAt.toISOString()),
    };
    const stored = await queryRows<{ monitor_id: number; location: string; checked_at: Date }>(
      db,
      `WITH input AS (
         SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::int[], $5::int[], $6::text[], $7::timestamptz[])
           AS i(monitor_id, location, status, status_code, response_time, error, checked_at)
         WHERE EXISTS (SELECT 1 FROM monitors m WHERE m.id = i.monitor_id)
       ), history AS (
         INSERT INTO location_checks (monitor_id, location, status, status_code, response_time, error, checked_at)
         SELECT monitor_id, location, status, status_code, response_time, error, checked_at FROM input
         RETURNING monitor_id, location, checked_at
       ), latest AS (
         INSERT INTO monitor_locations (monitor_id, location, status, status_code, response_time, error, checked_at)
         SELECT DISTINCT ON (monitor_id, location) monitor_id, location, status, status_code, response_time, error, checked_at
           FROM input ORDER BY monitor_id, location, checked_at DESC
         ON CONFLICT (monitor_id, location) DO UPDATE SET
           status = EXCLUDED.status, status_code = EXCLUDED.status_code, response_time = EXCLUDED.response_time,
           error = EXCLUDED.error, checked_at = EXCLUDED.checked_at
         WHERE monitor_locations.checked_at <= EXCLUDED.checked_at
       )
       SELECT monitor_id, location, checked_at FROM history`,
      [columns.monitor, columns.location, columns.status, columns.code, columns.latency, columns.error, columns.at],
    );
    const kept = new Set(stored.map((row) => `${row.monitor_id} ${row.location} ${new Date(row.checked_at).getTime()}`));
    return checks.filter((c) => kept.has(`${c.monitorId} ${c.location} ${c.checkedAt.getTime()}`));
  }

  /** The monitor's locations' last results, and the names and presence of the agents it names: two indexed reads. */
  async context(monitorId: number, locations: readonly LocationId[], db: Sql = this.dataSource): Promise<LocationContext> {
    const agentIds = locations.map(locationAgentId).filter((id): id is number => typeof id === 'number');
    const [latest, agents] = await Promise.all([
      queryRows<LatestRow>(
        db,
        `SELECT location, status, status_code, response_time, error, checked_at FROM monitor_locations WHERE monitor_id = $1`,
        [monitorId],
      ),
      agentIds.length
        ? queryRows<{ id: number; name: string; status: string }>(db, `SELECT id, name, status FROM agents WHERE id = ANY($1::int[])`, [
            agentIds,
          ])
        : Promise.resolve([]),
    ]);
    const names = new Map<LocationId, string>([[SERVER_LOCATION, SERVER_LOCATION]]);
    for (const agent of agents) names.set(`agent:${agent.id}`, agent.name);
    return {
      results: new Map(
        latest.map((row) => [
          row.location,
          {
            status: row.status,
            statusCode: row.status_code,
            responseTime: row.response_time,
            error: row.error,
            checkedAt: new Date(row.checked_at),
          },
        ]),
      ),
      online: new Set(agents.filter((agent) => agent.status === 'active').map((agent) => agent.id)),
      names,
    };
  }

  /** Per location of the monitor: successes and results over the last 24 h (degraded counts as up, as uptime does). */
  async uptime(monitorId: number, db: Sql = this.dataSource): Promise<Map<LocationId, { up: number; checks: number }>> {
    const rows = await queryRows<{ location: LocationId; up: number; checks: number }>(
      db,
      `SELECT location, count(*) FILTER (WHERE status <> 'down')::int AS up, count(*)::int AS checks
         FROM location_checks WHERE monitor_id = $1 AND checked_at > now() - interval '24 hours'
        GROUP BY location`,
      [monitorId],
    );
    return new Map(rows.map((row) => [row.location, { up: row.up, checks: row.checks }]));
  }

  /** Agents' names by id (ids that are not agents' ignored). */
  async agentNames(ids: Array<number | null | undefined>, db: Sql = this.dataSource): Promise<Map<number, string>> {
    const wanted = [...new Set(ids.filter((id): id is number => typeof id === 'number'))];
    if (!wanted.length) return new Map();
    const rows = await queryRows<{ id: number; name: string }>(db, `SELECT id, name FROM agents WHERE id = ANY($1::int[])`, [wanted]);
    return new Map(rows.map((row) => [row.id, row.name]));
  }

  /** Monitors checked from the agent (for its presence changes), with what their verdict needs. */
  async monitorsOf(agentId: number, db: Sql = this.dataSource): Promise<Array<{ id: number; interval_s: number; timeout_s: number }>> {
    return queryRows(db, `SELECT id, interval_s, timeout_s FROM monitors WHERE locations @> ARRAY[$1::text] AND locations <> '{server}'`, [
      `agent:${agentId}`,
    ]);
  }

  /** Drops results of locations a monitor no longer has (an edit removed an agent). */
  async forgetOthers(monitorId: number, locations: readonly LocationId[], db: Sql = this.dataSource): Promise<void> {
    await db.query(`DELETE FROM monitor_locations WHERE monitor_id = $1 AND NOT (location = ANY($2::text[]))`, [monitorId, locations]);
  }
}
