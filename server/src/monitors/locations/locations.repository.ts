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

/** A stored result with the location's status before its batch (null before any). */
export type StoredLocationCheck = LocationCheck & { previous: LocationResult['status'] | null };

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
   * of deleted monitors are left out. Answers the results stored, each with its location's status before the batch
   * (read by the same statement, so instances storing results of one monitor at once agree on what changed).
   */
  async store(checks: LocationCheck[], db: Sql = this.dataSource): Promise<StoredLocationCheck[]> {
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
    const stored = await queryRows<{ monitor_id: number; location: string; checked_at: Date; previous: LocationResult['status'] | null }>(
      db,
      `WITH input AS (
         SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::int[], $5::int[], $6::text[], $7::timestamptz[])
           AS i(monitor_id, location, status, status_code, response_time, error, checked_at)
         WHERE EXISTS (SELECT 1 FROM monitors m WHERE m.id = i.monitor_id)
       ), before AS (
         SELECT ml.monitor_id, ml.location, ml.status FROM monitor_locations ml
           JOIN (SELECT DISTINCT monitor_id, location FROM input) i USING (monitor_id, location)
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
       SELECT h.monitor_id, h.location, h.checked_at, b.status AS previous
         FROM history h LEFT JOIN before b USING (monitor_id, location)`,
      [columns.monitor, columns.location, columns.status, columns.code, columns.latency, columns.error, columns.at],
    );
    const previous = new Map(
      stored.map((row) => [`${row.monitor_id} ${row.location} ${new Date(row.checked_at).getTime()}`, row.previous]),
    );
    return checks.flatMap((c) => {
      const key = `${c.monitorId} ${c.location} ${c.checkedAt.getTime()}`;
      return previous.has(key) ? [{ ...c, previous: previous.get(key)! }] : [];
    });
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

  /**
   * Each monitor checked from the agent, with what its standing there needs (its rhythm and that location's last
   * result), and the agent's name: one read for an agent's presence change, however many monitors it checks.
   */
  async agentLocations(
    agentId: number,
    db: Sql = this.dataSource,
  ): Promise<{ name: string | null; monitors: Array<{ id: number; interval: number; timeout: number; result: LocationResult | null }> }> {
    const location = `agent:${agentId}`;
    const [agents, rows] = await Promise.all([
      queryRows<{ name: string }>(db, `SELECT name FROM agents WHERE id = $1`, [agentId]),
      queryRows<{ id: number; interval_s: number; timeout_s: number } & Partial<LatestRow>>(
        db,
        `SELECT m.id, m.interval_s, m.timeout_s, l.status, l.response_time, l.error, l.checked_at
           FROM monitors m LEFT JOIN monitor_locations l ON l.monitor_id = m.id AND l.location = $1
          WHERE m.locations @> ARRAY[$1::text] AND m.locations <> '{server}'`,
        [location],
      ),
    ]);
    return {
      name: agents[0]?.name ?? null,
      monitors: rows.map((row) => ({
        id: row.id,
        interval: row.interval_s,
        timeout: row.timeout_s,
        result: row.status
          ? { status: row.status, responseTime: row.response_time ?? null, error: row.error ?? null, checkedAt: new Date(row.checked_at!) }
          : null,
      })),
    };
  }

  /** Drops results of locations a monitor no longer has (an edit removed an agent). */
  async forgetOthers(monitorId: number, locations: readonly LocationId[], db: Sql = this.dataSource): Promise<void> {
    await db.query(`DELETE FROM monitor_locations WHERE monitor_id = $1 AND NOT (location = ANY($2::text[]))`, [monitorId, locations]);
  }
}
