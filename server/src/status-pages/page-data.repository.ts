import { Injectable } from '@nestjs/common';
import type { MonitorStatus, MonitorType } from '@vigil/proto';
import { DataSource } from 'typeorm';
import { percent } from '../agents/figures';
import { queryRows } from '../database/rows';
import { publicTypeFields, TypeSource } from '../status/status.repository';
import { dayDate, DayCounts, epochDay, observedSeconds } from './page-bars';
import type { RolledDays } from './monitor-daily';

/** Where a component sits on its page. */
interface Placed {
  group_position: number;
  position: number;
}

export interface MonitorSource extends Placed {
  id: number;
  name: string;
  status: MonitorStatus;
  active: boolean;
  type: MonitorType;
  response_time: number | null;
  certificate_days: number | null;
  /** Group monitors: how many monitors belong to it. */
  members: number | null;
}

export interface AgentSource extends Placed {
  id: number;
  name: string;
  status: 'active' | 'inactive' | 'connecting';
  unreachable: boolean;
  maintenance: boolean;
  hostname: string;
  ip_address: string | null;
  cpu: number | null;
  memory: number | null;
  disk: number | null;
}

/** Seconds an agent counts as up in one hourly bucket: its reports times its interval, at most the hour. */
const HOUR_SECONDS = 3600;

/**
 * What a status page's projection is built from, each in one query for the whole page (never one per component):
 * its monitors and agents as anyone may see them, and their daily counts from the hourly aggregates.
 */
@Injectable()
export class PageDataRepository {
  constructor(private readonly dataSource: DataSource) {}

  async monitors(pageId: number): Promise<MonitorSource[]> {
    const rows = await queryRows<Omit<MonitorSource, 'certificate_days' | 'members'> & TypeSource & { members: string | null }>(
      this.dataSource,
      `SELECT c.group_position, c.position, m.id, m.name, m.status, m.active, m.type, m.response_time, m.cert_expiry_days,
              m.certificate, g.members
       FROM status_page_components c
       JOIN monitors m ON m.id = c.monitor_id
       LEFT JOIN (SELECT parent_id, count(*) AS members FROM monitors WHERE parent_id IS NOT NULL GROUP BY parent_id) g
         ON g.parent_id = m.id AND m.type = 'group'
       WHERE c.page_id = $1`,
      [pageId],
    );
    const now = new Date();
    return rows.map((row) => ({
      group_position: row.group_position,
      position: row.position,
      id: row.id,
      name: row.name,
      status: row.status,
      active: row.active,
      type: row.type ?? 'http',
      response_time: row.response_time,
      certificate_days: publicTypeFields(row, now).certificate_days ?? null,
      members: row.type === 'group' ? Number(row.members ?? 0) : null,
    }));
  }

  async agents(pageId: number): Promise<Array<AgentSource & { created_at: Date }>> {
    const rows = await queryRows<
      Omit<AgentSource, 'ip_address' | 'cpu' | 'memory' | 'disk'> & {
        ip_addresses: string[];
        cpu_usage: number | null;
        memory_used: string | null;
        memory_total: string | null;
        disk_used: string | null;
        disk_total: string | null;
        created_at: Date;
      }
    >(
      this.dataSource,
      `SELECT c.group_position, c.position, a.id, a.name, a.status, a.unreachable, a.maintenance, a.hostname,
              a.ip_addresses, a.cpu_usage, a.memory_used, a.memory_total, a.disk_used, a.disk_total, a.created_at
       FROM status_page_components c JOIN agents a ON a.id = c.agent_id
       WHERE c.page_id = $1`,
      [pageId],
    );
    const count = (value: string | null) => (value === null ? null : Number(value));
    return rows.map((row) => ({
      group_position: row.group_position,
      position: row.position,
      id: row.id,
      name: row.name,
      status: row.status,
      unreachable: row.unreachable,
      maintenance: row.maintenance,
      hostname: row.hostname,
      ip_address: row.ip_addresses?.[0] ?? null,
      cpu: row.cpu_usage === null ? null : Math.round(row.cpu_usage * 10) / 10,
      memory: percent(count(row.memory_used), count(row.memory_total)),
      disk: percent(count(row.disk_used), count(row.disk_total)),
      created_at: row.created_at,
    }));
  }

  /**
   * Successful and all checks per UTC day since `firstDay`, for these monitors, in one query however many: the days
   * `monitor_daily` holds in full (`rolled`), the others (today, and any not rolled up yet) from `monitor_hourly`.
   */
  async monitorDays(ids: number[], firstDay: number, rolled: RolledDays | null): Promise<Map<number, DayCounts>> {
    const result = new Map<number, DayCounts>(ids.map((id) => [id, new DayCounts(firstDay)]));
    if (!ids.length) return result;
    const dailyFrom = Math.max(rolled?.from ?? firstDay, firstDay);
    const dailyUntil = Math.max(rolled?.until ?? firstDay, dailyFrom);
    const rows = await queryRows<{ id: number; days: number[]; ups: number[]; checks: number[] }>(
      this.dataSource,
      `SELECT monitor_id AS id, array_agg(day) AS days, array_agg(up) AS ups, array_agg(checks) AS checks
       FROM (SELECT monitor_id, day - DATE '1970-01-01' AS day, up, checks FROM monitor_daily
             WHERE monitor_id = ANY($1::int[]) AND day >= $3::date AND day < $4::date
             UNION ALL
             SELECT monitor_id, (extract(epoch FROM hour)::bigint / 86400)::int, sum(up)::int, sum(checks)::int FROM monitor_hourly
             WHERE monitor_id = ANY($1::int[]) AND hour >= $2::date::timestamp AT TIME ZONE 'UTC'
               AND (hour < $3::date::timestamp AT TIME ZONE 'UTC' OR hour >= $4::date::timestamp AT TIME ZONE 'UTC')
             GROUP BY 1, 2) daily
       GROUP BY monitor_id`,
      [ids, dayDate(firstDay), dayDate(dailyFrom), dayDate(dailyUntil)],
    );
    for (const row of rows) {
      const counts = result.get(row.id)!;
      row.days.forEach((day, index) => counts.add(day, row.ups[index], row.checks[index]));
    }
    return result;
  }

  /**
   * Seconds reported and observed per UTC day since `firstDay`, for these agents: an hourly metrics bucket counts its
   * reports times the agent's interval (at most the hour) as up; the time since the agent was added is observed.
   */
  async agentDays(agents: Array<{ id: number; created_at: Date }>, firstDay: number, nowMs = Date.now()): Promise<Map<number, DayCounts>> {
    const result = new Map<number, DayCounts>();
    const today = epochDay(nowMs);
    for (const agent of agents) {
      const counts = new DayCounts(firstDay);
      for (let day = firstDay; day <= today; day += 1)
        counts.add(day, 0, observedSeconds(day, new Date(agent.created_at).getTime(), nowMs));
      result.set(agent.id, counts);
    }
    if (!agents.length) return result;
    const rows = await queryRows<{ id: number; day: number; up: number }>(
      this.dataSource,
      `SELECT m.agent_id AS id, (extract(epoch FROM m.bucket)::bigint / 86400)::int AS day,
              sum(least(m.samples * a.interval_s, $3))::int AS up
       FROM agent_metrics m JOIN agents a ON a.id = m.agent_id
       WHERE m.agent_id = ANY($1::int[]) AND m.tier = $3 AND m.bucket >= to_timestamp($2::bigint * 86400)
       GROUP BY 1, 2`,
      [agents.map((agent) => agent.id), firstDay, HOUR_SECONDS],
    );
    for (const row of rows) result.get(row.id)?.add(row.day, row.up, 0);
    return result;
  }
}
