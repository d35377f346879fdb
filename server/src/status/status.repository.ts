import { Injectable } from '@nestjs/common';
import {
  type AgentDto,
  LOCATION_STALE_INTERVALS,
  type MonitorStatus,
  type MonitorType,
  type PublicAgent,
  type PublicMonitor,
  type StatusChange,
  type StatusConfigItem,
  type StatusPageSettings,
} from '@vigil/proto';
import { DataSource, EntityManager } from 'typeorm';
import { percent } from '../agents/figures';
import { execute, queryRow, queryRows } from '../database/rows';
import { uptimePercent } from '../monitors/monitor.mapper';
import { daysRemaining } from '../monitors/checkers/peer-certificate';
import { usesField } from '../monitors/monitor-type-fields.dto';
import { MonitorsRepository } from '../monitors/monitors.repository';

/** What the public projection needs of an agent: its DTO has it, and so does a projection row once parsed. */
type AgentSource = Pick<
  AgentDto,
  | 'id'
  | 'name'
  | 'status'
  | 'hostname'
  | 'ip_address'
  | 'os'
  | 'cpu_usage'
  | 'memory_used'
  | 'memory_total'
  | 'disk_used'
  | 'disk_total'
  | 'updated_at'
  | 'unreachable'
  | 'maintenance'
>;

/** The projection anyone may see of an agent: no credential, no counters, percentages only. */
export function publicAgent(agent: AgentSource, showResources: boolean): PublicAgent {
  return {
    id: agent.id,
    name: agent.name,
    status: agent.status,
    hostname: agent.hostname,
    ip_address: agent.ip_address,
    os: agent.os,
    cpu: showResources && agent.cpu_usage !== null ? Math.round(agent.cpu_usage * 10) / 10 : null,
    memory: showResources ? percent(agent.memory_used, agent.memory_total) : null,
    disk: showResources ? percent(agent.disk_used, agent.disk_total) : null,
    updated_at: agent.updated_at,
    ...(agent.unreachable ? { unreachable: true } : {}),
    ...(agent.maintenance ? { maintenance: true } : {}),
  };
}

/** What a monitor's public item shows of its type; its target, token and connection string never leave the server. */
export interface TypeSource {
  type: MonitorType | null;
  cert_expiry_days: number[] | null;
  /** The last peer certificate seen (stored or read); only its expiry is used. */
  certificate: { expires_at: string } | null;
}

/** The type, and for types that watch a certificate the days it has left at `at` and the alert thresholds. */
export function publicTypeFields(source: TypeSource, at: Date): Pick<PublicMonitor, 'type' | 'certificate_days' | 'cert_expiry_days'> {
  const type = source.type ?? 'http';
  if (!usesField(type, 'certExpiryDays')) return { type };
  return {
    type,
    certificate_days: source.certificate ? daysRemaining(new Date(source.certificate.expires_at), at) : null,
    cert_expiry_days: source.cert_expiry_days ?? [],
  };
}

interface AgentProjectionRow extends Omit<
  AgentSource,
  'ip_address' | 'memory_used' | 'memory_total' | 'disk_used' | 'disk_total' | 'updated_at'
> {
  ip_addresses: string[];
  memory_used: string | null;
  memory_total: string | null;
  disk_used: string | null;
  disk_total: string | null;
  updated_at: Date;
}

const count = (value: string | null) => (value === null ? null : Number(value));

function sourceOf(row: AgentProjectionRow): AgentSource {
  return {
    ...row,
    ip_address: row.ip_addresses?.[0] ?? null,
    memory_used: count(row.memory_used),
    memory_total: count(row.memory_total),
    disk_used: count(row.disk_used),
    disk_total: count(row.disk_total),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

const AGENT_PROJECTION = `a.id, a.name, a.status, a.hostname, a.ip_addresses, a.os, a.cpu_usage, a.memory_used, a.memory_total,
  a.disk_used, a.disk_total, a.updated_at, a.unreachable, a.maintenance`;

/** A monitor's locations on the wall: failing (known and down) and all. */
export interface LocationCounts {
  failing: number;
  total: number;
}

/** The spec's `/status`: the components of the page with slug `default`. */
const DEFAULT_COMPONENTS = `SELECT c.monitor_id, c.agent_id FROM status_page_components c
  JOIN status_pages p ON p.id = c.page_id WHERE p.slug = 'default'`;

/** Status page selections, the public projections of monitors and agents, and the feed of status changes. */
@Injectable()
export class StatusRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly monitors: MonitorsRepository,
  ) {}

  /** The default page's settings as the spec's configuration reads them. */
  async defaultSettings(): Promise<StatusPageSettings> {
    const row = await queryRow<{
      title: string;
      description: string;
      logo_url: string | null;
      custom_css: string | null;
      show_resources: boolean;
    }>(this.dataSource, `SELECT title, description, logo_url, custom_css, show_resources FROM status_pages WHERE slug = 'default'`);
    return {
      title: row?.title ?? '',
      description: row?.description ?? '',
      logoUrl: row?.logo_url ?? null,
      customCss: row?.custom_css ?? null,
      showResources: row?.show_resources ?? true,
    };
  }

  async saveDefaultSettings(settings: StatusPageSettings, db: EntityManager): Promise<void> {
    await execute(
      db,
      `INSERT INTO status_pages (slug, title, description, logo_url, custom_css, show_resources, show_agent_details)
       VALUES ('default', $1, $2, $3, $4, $5, true)
       ON CONFLICT (slug) DO UPDATE SET title = $1, description = $2, logo_url = $3, custom_css = $4, show_resources = $5,
         updated_at = now()`,
      [settings.title, settings.description, settings.logoUrl, settings.customCss, settings.showResources],
    );
  }

  /** Every monitor and agent by name, with whether the status page shows it. */
  async selections(): Promise<{ monitors: StatusConfigItem[]; agents: StatusConfigItem[] }> {
    const [monitors, agents] = await Promise.all([
      queryRows<StatusConfigItem>(
        this.dataSource,
        `SELECT m.id, m.name, (s.monitor_id IS NOT NULL) AS selected FROM monitors m
         LEFT JOIN (${DEFAULT_COMPONENTS}) s ON s.monitor_id = m.id ORDER BY m.id`,
      ),
      queryRows<StatusConfigItem>(
        this.dataSource,
        `SELECT a.id, a.name, (s.agent_id IS NOT NULL) AS selected FROM agents a
         LEFT JOIN (${DEFAULT_COMPONENTS}) s ON s.agent_id = a.id ORDER BY a.id`,
      ),
    ]);
    return { monitors, agents };
  }

  /**
   * Replaces the default page's components in one transaction, as one unnamed group (monitors, then agents, by id);
   * ids of missing monitors or agents are ignored.
   */
  async select(monitorIds: number[], agentIds: number[], db?: EntityManager): Promise<void> {
    const replace = async (manager: EntityManager) => {
      const page = `(SELECT id FROM status_pages WHERE slug = 'default')`;
      await execute(manager, `DELETE FROM status_page_components WHERE page_id = ${page}`);
      await execute(manager, `DELETE FROM status_page_groups WHERE page_id = ${page}`);
      await execute(manager, `INSERT INTO status_page_groups (page_id, position, name) SELECT ${page}, 0, ''`);
      await execute(
        manager,
        `INSERT INTO status_page_components (page_id, group_position, position, monitor_id, agent_id)
         SELECT ${page}, 0, row_number() OVER (ORDER BY kind, id) - 1, monitor_id, agent_id FROM (
           SELECT 0 AS kind, id, id AS monitor_id, NULL::integer AS agent_id FROM monitors WHERE id = ANY($1::int[])
           UNION ALL
           SELECT 1, id, NULL, id FROM agents WHERE id = ANY($2::int[])
         ) chosen`,
        [monitorIds, agentIds],
      );
    };
    await (db ? replace(db) : this.dataSource.transaction(replace));
  }

  /** Public monitors: only the selected ones, or every monitor (the wall). */
  async publicMonitors(scope: 'selected' | 'all', historyPoints: number): Promise<PublicMonitor[]> {
    const rows = await queryRows<
      {
        id: number;
        name: string;
        status: MonitorStatus;
        response_time: number | null;
        last_checked: Date | null;
        active: boolean;
        flapping: boolean;
      } & TypeSource
    >(
      this.dataSource,
      `SELECT m.id, m.name, m.status, m.response_time, m.last_checked, m.active, m.flapping, m.type, m.cert_expiry_days,
              m.certificate
       FROM monitors m ${scope === 'selected' ? `JOIN (${DEFAULT_COMPONENTS}) s ON s.monitor_id = m.id` : ''} ORDER BY m.id`,
    );
    const now = new Date();
    const ids = rows.map((r) => r.id);
    const [uptime, history] = await Promise.all([
      this.monitors.uptime24h(ids),
      historyPoints > 0 ? this.monitors.history(ids, historyPoints) : Promise.resolve(new Map()),
    ]);
    return rows.map((row) => {
      const counts = uptime.get(row.id);
      return {
        id: row.id,
        name: row.name,
        status: row.status,
        uptime: uptimePercent(counts?.up ?? 0, counts?.checks ?? 0),
        response_time: row.response_time,
        history: history.get(row.id) ?? [],
        last_checked: row.last_checked ? new Date(row.last_checked).toISOString() : null,
        active: row.active,
        ...(row.flapping ? { flapping: true } : {}),
        ...publicTypeFields(row, now),
      };
    });
  }

  /**
   * How many locations fail, of how many, for every monitor checked from agents or from several locations (the
   * wall's one read), or for one. Only known locations count as failing: a last result that is down, fresher than
   * LOCATION_STALE_INTERVALS intervals plus the timeout, from the server or an online agent (an offline agent's
   * location is unknown, as in the verdict).
   */
  async locationCounts(monitorId?: number): Promise<Map<number, LocationCounts>> {
    const rows = await queryRows<{ id: number } & LocationCounts>(
      this.dataSource,
      `SELECT m.id, cardinality(m.locations) AS total,
              (count(*) FILTER (
                WHERE l.status = 'down'
                  AND l.checked_at > now() - make_interval(secs => m.interval_s * $1 + m.timeout_s)
                  AND (l.location = 'server' OR a.status = 'active')))::int AS failing
       FROM monitors m
       LEFT JOIN monitor_locations l ON l.monitor_id = m.id AND l.location = ANY(m.locations)
       LEFT JOIN agents a ON l.location = 'agent:' || a.id
       WHERE m.locations <> '{server}'${monitorId === undefined ? '' : ' AND m.id = $2'}
       GROUP BY m.id`,
      monitorId === undefined ? [LOCATION_STALE_INTERVALS] : [LOCATION_STALE_INTERVALS, monitorId],
    );
    return new Map(rows.map(({ id, failing, total }) => [id, { failing, total }]));
  }

  async publicAgents(scope: 'selected' | 'all', showResources: boolean): Promise<PublicAgent[]> {
    const rows = await queryRows<AgentProjectionRow>(
      this.dataSource,
      scope === 'selected'
        ? `SELECT ${AGENT_PROJECTION} FROM agents a JOIN (${DEFAULT_COMPONENTS}) s ON s.agent_id = a.id ORDER BY a.id`
        : `SELECT ${AGENT_PROJECTION} FROM agents a ORDER BY a.id`,
    );
    return rows.map((row) => publicAgent(sourceOf(row), showResources));
  }

  async recordChange(change: Omit<StatusChange, 'at'>): Promise<StatusChange> {
    const row = await queryRow<{ at: Date }>(
      this.dataSource,
      `INSERT INTO status_changes (kind, target_id, name, previous, status) VALUES ($1, $2, $3, $4, $5) RETURNING at`,
      [change.kind, change.id, change.name.slice(0, 100), change.previous, change.status],
    );
    return { ...change, at: new Date(row!.at).toISOString() };
  }

  async recentChanges(limit: number): Promise<StatusChange[]> {
    const rows = await queryRows<Omit<StatusChange, 'at'> & { at: Date }>(
      this.dataSource,
      `SELECT kind, target_id AS id, name, previous, status, at FROM status_changes ORDER BY at DESC, id DESC LIMIT $1`,
      [limit],
    );
    return rows.map((r) => ({ ...r, at: new Date(r.at).toISOString() }));
  }

  /** Uptime and mean response time over 24 h across every monitor, from the hourly aggregates. */
  async totals24h(): Promise<{ uptime: number | null; avg_response_time: number | null }> {
    // Sums over no rows are NULL.
    const [{ up, checks, response_sum, response_count }] = await queryRows<{
      up: number | null;
      checks: number | null;
      response_sum: number | null;
      response_count: number | null;
    }>(
      this.dataSource,
      `SELECT sum(up)::float8 AS up, sum(checks)::float8 AS checks, sum(response_sum)::float8 AS response_sum,
              sum(response_count)::float8 AS response_count
       FROM monitor_hourly WHERE hour > now() - interval '24 hours'`,
    );
    return {
      uptime: checks ? Math.round((up! / checks) * 10_000) / 100 : null,
      avg_response_time: response_count ? Math.round(response_sum! / response_count) : null,
    };
  }

  async pruneChanges(keep: number): Promise<void> {
    await execute(
      this.dataSource,
      `DELETE FROM status_changes WHERE id < (SELECT min(id) FROM (SELECT id FROM status_changes ORDER BY id DESC LIMIT $1) t)`,
      [keep],
    );
  }
}
