import { Injectable } from '@nestjs/common';
import { HOST_CONTEXT_LIMITS, type HostContextDto } from '@vigil/proto';
import { DataSource } from 'typeorm';
import { queryRow, queryRows, type Sql } from '../database/rows';
import { hostContextOf, type HostContextRow } from './host-context';

/** Alerts read per agent: far more than are told (HOST_CONTEXT_LIMITS.changesMax), so `more_changes` means something. */
const ALERTS_READ = 100;

/**
 * The host context of agents (issue 32, requirement 9): their last figures and recent changes, summed up in one
 * statement however many agents are asked for. Runs on the caller's transaction when given one (an alert being built).
 */
@Injectable()
export class HostContextRepository {
  constructor(private readonly dataSource: DataSource) {}

  async forAgents(ids: number[], db: Sql = this.dataSource): Promise<Map<number, HostContextDto>> {
    if (!ids.length) return new Map();
    const rows = await queryRows<HostContextRow>(
      db,
      `SELECT a.id, a.name, a.hostname, a.status,
         coalesce(a.disconnected_at, a.last_seen_at) AS offline_since,
         a.last_report_at AS reported_at,
         a.cpu_usage AS cpu,
         CASE WHEN a.memory_total > 0 THEN (a.memory_used * 100.0 / a.memory_total)::float8 END AS memory,
         CASE WHEN a.swap_total > 0 THEN (a.swap_used * 100.0 / a.swap_total)::float8 END AS swap,
         disk.mount AS disk_mount, disk.percent AS disk_percent,
         a.load1, a.load5, a.load15,
         (SELECT jsonb_agg(jsonb_build_object('name', c->>'name', 'state', c->>'state', 'health', c->>'health'))
            FROM jsonb_array_elements(CASE WHEN jsonb_typeof(a.insight->'containers') = 'array' THEN a.insight->'containers' ELSE '[]' END) c
            WHERE c->>'state' <> 'running' OR c->>'health' = 'unhealthy') AS containers,
         (SELECT jsonb_agg(jsonb_build_object('name', s->>'name', 'state', s->>'state'))
            FROM jsonb_array_elements(CASE WHEN jsonb_typeof(a.insight->'services') = 'array' THEN a.insight->'services' ELSE '[]' END) s
            WHERE s->>'state' = 'failed') AS services,
         (SELECT coalesce(jsonb_agg(recent ORDER BY recent.opened_at DESC), '[]')
            FROM (SELECT al.metric, al.item, al.opened_at, al.closed_at FROM alerts al
                  WHERE al.target_kind = 'agent' AND al.target_id = a.id AND al.metric <> 'status'
                    AND (al.closed_at IS NULL OR al.opened_at > now() - make_interval(mins => $2))
                  ORDER BY al.opened_at DESC LIMIT $3) recent) AS alerts
       FROM agents a
       LEFT JOIN LATERAL (
         SELECT d->>'mount' AS mount, ((d->>'used')::float8 * 100 / (d->>'total')::float8) AS percent
         FROM jsonb_array_elements(a.disks) d
         WHERE (d->>'total')::float8 > 0
         ORDER BY 2 DESC LIMIT 1
       ) disk ON true
       WHERE a.id = ANY($1::int[])`,
      [ids, HOST_CONTEXT_LIMITS.windowMinutes, ALERTS_READ],
    );
    return new Map(rows.map((row) => [row.id, hostContextOf(row)]));
  }

  /** The agent a monitor names as its host: undefined when the monitor does not exist, null when it names none. */
  async hostOf(monitorId: number): Promise<number | null | undefined> {
    const row = await queryRow<{ host_agent_id: number | null }>(this.dataSource, `SELECT host_agent_id FROM monitors WHERE id = $1`, [
      monitorId,
    ]);
    return row ? row.host_agent_id : undefined;
  }
}
