import { Injectable } from '@nestjs/common';
import type { AgentCounts, AgentHello, AgentListStatus, AgentMetricPoint, AgentProtocol, AgentStatus, DependencyRef } from '@vigil/proto';
import { DependenciesRepository } from '../monitors/dependencies/dependencies.repository';
import { unreachableCause } from './agent-state';
import { execute, queryRow, queryRows, type Sql } from '../database/rows';
import { DomainEvents, type Raise } from '../events/domain-events.service';
import { statusChange, toAgentDto } from './agent.mapper';
import { DataSource } from 'typeorm';
import type { AgentRow } from './agent.types';
import type { BucketSums, CounterState, LatestFigures, Tier } from './figures';
import type { HostInsight } from './insight-validation';
import { upsertDeviceSums } from './agent-devices.repository';
import type { DeviceSums } from './device-figures';

export const COLUMNS = `id, name, hostname, ip_addresses, os, version, platform, kernel, arch, cpu_model, cpu_cores, status,
  protocol, interval_s, registration_id, cpu_usage, memory_total, memory_used, swap_total, swap_used, disk_total,
  disk_used, network_rx, network_tx, load1, load5, load15, host_uptime, disks, interfaces, counters, last_report_at,
  created_at, updated_at, depends_on, unreachable, muted_until, maintenance`;

/** `COLUMNS` of the row alias `a`, for statements that join. */
export const A_COLUMNS = COLUMNS.split(',')
  .map((c) => `a.${c.trim()}`)
  .join(', ');

/** What a hello says about the host, in the column order of agents' host fields (hostname … cpu_cores). */
function hostValues(hello: AgentHello): unknown[] {
  return [
    hello.hostname,
    JSON.stringify(hello.ip_addresses),
    hello.os,
    hello.agent_version,
    hello.platform,
    hello.kernel ?? null,
    hello.arch ?? null,
    hello.cpu_model ?? null,
    hello.cpu_cores ?? null,
  ];
}

/** A row a status update returned, with the status (and unreachable flag) it replaced. */
type RowWithPrevious = AgentRow & { previous: AgentStatus; previous_unreachable: boolean };

/** One stored bucket of `agent_metrics` as read back: the sums the writer stores, the bucket as a timestamp. */
type MetricBucketRow = Omit<BucketSums, 'agent_id' | 'tier' | 'bucket'> & { bucket: Date };

export interface Transition {
  row: AgentRow;
  previous: AgentStatus;
  previousUnreachable: boolean;
  /** Gone offline unreachable: the dependency that was down. */
  cause?: DependencyRef & { name: string };
}

export interface NewAgent {
  name: string;
  hello: AgentHello;
  protocol: AgentProtocol;
  interval: number;
  credentialHash: string | null;
  httpKey: string | null;
  registrationId: number | null;
}

/** Why a registration token enrols no agent: it enrolled another host, or it is unknown or expired. */
export type TokenRefusal = 'taken' | 'invalid';

/** One host an HTTP agent's post names (its registration token and hostname), as the database knows it. */
export interface HttpHost {
  /** The agent this token and hostname made before, if any. */
  agent: AgentRow | null;
  /** Whether the token may enrol this host (if new): it is live and free or already this host's, or why not. */
  token: 'usable' | TokenRefusal;
}

export interface ListQuery {
  offset: number;
  limit: number | null;
  status?: AgentListStatus;
  search?: string;
}

/** One report's figures, ready to become the agent's latest. */
export interface LatestUpdate {
  agentId: number;
  at: Date;
  figures: LatestFigures;
  point: AgentMetricPoint;
  /** Protocol 2's containers, sensors, disk I/O and services; null from an agent that sends none. */
  insight: HostInsight | null;
}

/**
 * Each list status as a condition on `agents`. Every offline agent is `inactive`, as the spec counts it; `unreachable`
 * picks out those offline behind a down dependency, so a router's outage does not bury the hosts that failed alone;
 * `maintenance` those a maintenance window covers, whatever their status.
 */
const LIST_STATUS: Record<AgentListStatus, string> = {
  active: `status = 'active'`,
  connecting: `status = 'connecting'`,
  inactive: `status = 'inactive'`,
  unreachable: `status = 'inactive' AND unreachable`,
  maintenance: `maintenance`,
};

/** The only code that touches the agent tables. Plain SQL, batched where reports arrive by the thousand. */
@Injectable()
export class AgentsRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly events: DomainEvents,
    private readonly dependencies: DependenciesRepository,
  ) {}

  async insertToken(tokenHash: string, expiresAt: Date, userId: number | null, db: Sql = this.dataSource): Promise<number> {
    const row = await queryRow<{ id: number }>(
      db,
      `INSERT INTO agent_tokens (token_hash, expires_at, created_by) VALUES ($1, $2, $3) RETURNING id`,
      [tokenHash, expiresAt, userId],
    );
    return row!.id;
  }

  /**
   * Binds a registration token to the host that first enrols with it, in one statement (two hosts racing for one
   * token cannot both win): the token's id for that host, `taken` when it enrolled another host, `invalid` when it is
   * unknown or expired.
   */
  async claimToken(tokenHash: string, hostname: string, db: Sql = this.dataSource): Promise<number | TokenRefusal> {
    const claimed = await queryRow<{ id: number }>(
      db,
      `UPDATE agent_tokens SET hostname = $2
       WHERE token_hash = $1 AND expires_at > now() AND (hostname IS NULL OR hostname = $2) RETURNING id`,
      [tokenHash, hostname],
    );
    if (claimed) return claimed.id;
    const valid = await queryRow(db, `SELECT 1 FROM agent_tokens WHERE token_hash = $1 AND expires_at > now()`, [tokenHash]);
    return valid ? 'taken' : 'invalid';
  }

  /**
   * Enrols a socket agent, holding its registration token's row until done: the token's first host gets a new agent,
   * that host again gets its agent back with `credentialHash` as its credential (the previous one stops working), any
   * other host is refused.
   */
  async enrolSocketAgent(
    tokenHash: string,
    agent: Omit<NewAgent, 'registrationId'>,
    /** Runs in the enrolment's transaction (its audit entry). */
    enrolled: (db: Sql, row: AgentRow, created: boolean) => Promise<void>,
  ): Promise<{ row: AgentRow; created: boolean } | TokenRefusal> {
    return this.dataSource.transaction(async (manager) => {
      const tokenId = await this.claimToken(tokenHash, agent.hello.hostname, manager);
      if (typeof tokenId !== 'number') return tokenId;
      const again = await queryRow<AgentRow>(
        manager,
        `UPDATE agents SET credential_hash = $3
         WHERE id = (SELECT id FROM agents WHERE registration_id = $1 AND hostname = $2 AND protocol = 'socket' ORDER BY id LIMIT 1)
         RETURNING ${COLUMNS}`,
        [tokenId, agent.hello.hostname, agent.credentialHash],
      );
      const result = again
        ? { row: again, created: false }
        : { row: await this.insert({ ...agent, registrationId: tokenId }, manager), created: true };
      await enrolled(manager, result.row, result.created);
      return result;
    });
  }

  async insert(agent: NewAgent, db: Sql = this.dataSource): Promise<AgentRow> {
    const { hello } = agent;
    const row = await queryRow<AgentRow>(
      db,
      `INSERT INTO agents (name, hostname, ip_addresses, os, version, platform, kernel, arch, cpu_model, cpu_cores,
         protocol, interval_s, credential_hash, http_key, registration_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
       RETURNING ${COLUMNS}`,
      [agent.name, ...hostValues(hello), agent.protocol, agent.interval, agent.credentialHash, agent.httpKey, agent.registrationId],
    );
    return row!;
  }

  /** Refreshes what the host says about itself (hello, or an HTTP agent's re-registration). */
  async updateHost(id: number, hello: AgentHello, interval: number | undefined): Promise<AgentRow | null> {
    return queryRow<AgentRow>(
      this.dataSource,
      `UPDATE agents SET hostname = $2, ip_addresses = $3, os = $4, version = $5, platform = $6,
         kernel = coalesce($7, kernel), arch = coalesce($8, arch), cpu_model = coalesce($9, cpu_model),
         cpu_cores = coalesce($10, cpu_cores), interval_s = coalesce($11, interval_s)
       WHERE id = $1 RETURNING ${COLUMNS}`,
      [id, ...hostValues(hello), interval ?? null],
    );
  }

  findById(id: number): Promise<AgentRow | null> {
    return queryRow<AgentRow>(this.dataSource, `SELECT ${COLUMNS} FROM agents WHERE id = $1`, [id]);
  }

  findByCredential(credentialHash: string): Promise<AgentRow | null> {
    return queryRow<AgentRow>(this.dataSource, `SELECT ${COLUMNS} FROM agents WHERE credential_hash = $1`, [credentialHash]);
  }

  /**
   * The hosts of a post, in its order: each one's agent and what its token allows, for every host in one query, so a
   * post naming a hundred hosts (or a hundred unknown tokens) costs one lookup, not one per host.
   */
  async findHttpHosts(hosts: Array<{ httpKey: string; hostname: string }>): Promise<HttpHost[]> {
    const rows = await queryRows<AgentRow & { token: HttpHost['token'] }>(
      this.dataSource,
      `SELECT CASE WHEN t.id IS NULL THEN 'invalid' WHEN t.hostname <> k.hostname THEN 'taken' ELSE 'usable' END AS token,
         ${A_COLUMNS}
       FROM unnest($1::bpchar[], $2::text[]) WITH ORDINALITY AS k(http_key, hostname, n)
       LEFT JOIN agents a ON a.http_key = k.http_key AND a.hostname = k.hostname
       LEFT JOIN agent_tokens t ON t.token_hash = k.http_key AND t.expires_at > now()
       ORDER BY k.n`,
      [hosts.map((host) => host.httpKey), hosts.map((host) => host.hostname)],
    );
    return rows.map(({ token, ...agent }) => ({ agent: agent.id === null ? null : agent, token }));
  }

  findHttpAgent(httpKey: string, hostname: string): Promise<AgentRow | null> {
    return queryRow<AgentRow>(this.dataSource, `SELECT ${COLUMNS} FROM agents WHERE http_key = $1 AND hostname = $2`, [httpKey, hostname]);
  }

  async list(query: ListQuery): Promise<{ rows: AgentRow[]; total: number }> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (query.status) where.push(LIST_STATUS[query.status]);
    if (query.search) {
      params.push(`%${query.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
      where.push(`(name ILIKE $${params.length} OR hostname ILIKE $${params.length} OR ip_addresses::text ILIKE $${params.length})`);
    }
    const condition = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const [{ total }] = await queryRows<{ total: number }>(
      this.dataSource,
      `SELECT count(*)::int AS total FROM agents ${condition}`,
      params,
    );
    params.push(query.offset);
    let page = `OFFSET $${params.length}`;
    if (query.limit !== null) {
      params.push(query.limit);
      page += ` LIMIT $${params.length}`;
    }
    const rows = await queryRows<AgentRow>(this.dataSource, `SELECT ${COLUMNS} FROM agents ${condition} ORDER BY id ${page}`, params);
    return { rows, total };
  }

  async counts(): Promise<AgentCounts> {
    const row = await queryRow<AgentCounts>(
      this.dataSource,
      `
      SELECT count(*) FILTER (WHERE ${LIST_STATUS.active})::int AS active,
             count(*) FILTER (WHERE ${LIST_STATUS.inactive})::int AS inactive,
             count(*) FILTER (WHERE ${LIST_STATUS.connecting})::int AS connecting,
             count(*) FILTER (WHERE ${LIST_STATUS.unreachable})::int AS unreachable,
             count(*) FILTER (WHERE ${LIST_STATUS.maintenance})::int AS maintenance,
             count(*)::int AS total
      FROM agents`,
    );
    return row!;
  }

  /** The row locked until the transaction `db` ends: what an audited change compares against. */
  findForUpdate(id: number, db: Sql): Promise<AgentRow | null> {
    return queryRow<AgentRow>(db, `SELECT ${COLUMNS} FROM agents WHERE id = $1 FOR UPDATE`, [id]);
  }

  async rename(id: number, name: string, db: Sql = this.dataSource): Promise<AgentRow | null> {
    return queryRow<AgentRow>(db, `UPDATE agents SET name = $2, updated_at = now() WHERE id = $1 RETURNING ${COLUMNS}`, [id, name]);
  }

  async setDependsOn(id: number, dependsOn: DependencyRef[], db: Sql): Promise<AgentRow | null> {
    return queryRow<AgentRow>(db, `UPDATE agents SET depends_on = $2::jsonb, updated_at = now() WHERE id = $1 RETURNING ${COLUMNS}`, [
      id,
      JSON.stringify(dependsOn),
    ]);
  }

  async delete(id: number, db: Sql = this.dataSource): Promise<AgentRow | null> {
    return queryRow<AgentRow>(db, `DELETE FROM agents WHERE id = $1 RETURNING ${COLUMNS}`, [id]);
  }

  /**
   * A socket of the agent connected: it owns the connection from now on. An offline agent becomes `connecting`
   * until its first report; the previous status comes from the locked row, so a transition is seen once.
   */
  async connected(id: number, connectionId: string): Promise<Transition | null> {
    return this.events.transaction(this.dataSource, async (manager, raise) => {
      const row = await queryRow<RowWithPrevious>(
        manager,
        `UPDATE agents a SET connection_id = $2, disconnected_at = NULL, last_seen_at = now(), unreachable = false,
           status = CASE WHEN p.previous = 'inactive' THEN 'connecting' ELSE p.previous END
         FROM (SELECT id, status AS previous, unreachable AS previous_unreachable FROM agents WHERE id = $1 FOR UPDATE) p
         WHERE a.id = p.id
         RETURNING ${A_COLUMNS}, p.previous, p.previous_unreachable`,
        [id, connectionId],
      );
      const transition = row ? transitionOf(row) : null;
      if (transition) announce(raise, [transition]);
      return transition;
    });
  }

  /** The socket went away; unless another connection took over meanwhile, the grace period starts now. */
  async disconnected(id: number, connectionId: string): Promise<void> {
    await execute(this.dataSource, `UPDATE agents SET disconnected_at = now(), connection_id = NULL WHERE id = $1 AND connection_id = $2`, [
      id,
      connectionId,
    ]);
  }

  /**
   * Stores a batch of reports in one transaction: the reporting agents are locked (in id order, so two instances
   * never deadlock) and marked active, the newest report of each becomes its latest figures, and every report is
   * added to the three tiers. Agents deleted meanwhile drop out. Returns the agents that were not active before.
   */
  async recordReports(
    latest: LatestUpdate[],
    sums: BucketSums[],
    devices: DeviceSums[] = [],
  ): Promise<{ stored: Set<number>; transitions: Transition[] }> {
    const ids = [...new Set(latest.map((u) => u.agentId))].sort((a, b) => a - b);
    return this.events.transaction(this.dataSource, async (manager, raise) => {
      const locked = await queryRows<RowWithPrevious>(
        manager,
        `UPDATE agents a SET status = 'active', last_seen_at = now(), unreachable = false
         FROM (SELECT id, status AS previous, unreachable AS previous_unreachable FROM agents WHERE id = ANY($1::int[]) ORDER BY id FOR UPDATE) p
         WHERE a.id = p.id
         RETURNING ${A_COLUMNS}, p.previous, p.previous_unreachable`,
        [ids],
      );
      const stored = new Set(locked.map((r) => r.id));
      const newest = new Map<number, LatestUpdate>();
      for (const update of latest) {
        if (!stored.has(update.agentId)) continue;
        const seen = newest.get(update.agentId);
        if (!seen || seen.at < update.at) newest.set(update.agentId, update);
      }
      if (newest.size) {
        await execute(
          manager,
          `UPDATE agents a SET cpu_usage = r.cpu_usage, memory_total = r.memory_total, memory_used = r.memory_used,
             swap_total = r.swap_total, swap_used = r.swap_used, disk_total = r.disk_total, disk_used = r.disk_used,
             network_rx = r.network_rx, network_tx = r.network_tx, load1 = r.load1, load5 = r.load5, load15 = r.load15,
             host_uptime = r.host_uptime, disks = r.disks, interfaces = r.interfaces, insight = r.insight,
             last_report_at = r.at, updated_at = r.at
           FROM jsonb_to_recordset($1::jsonb) AS r(agent_id int, at timestamptz, cpu_usage float8, memory_total bigint,
             memory_used bigint, swap_total bigint, swap_used bigint, disk_total bigint, disk_used bigint,
             network_rx float8, network_tx float8, load1 float8, load5 float8, load15 float8, host_uptime bigint,
             disks jsonb, interfaces jsonb, insight jsonb)
           WHERE a.id = r.agent_id AND (a.last_report_at IS NULL OR a.last_report_at <= r.at)`,
          [
            JSON.stringify(
              [...newest.values()].map((u) => ({ agent_id: u.agentId, at: u.at.toISOString(), ...u.figures, insight: u.insight })),
            ),
          ],
        );
      }
      const kept = sums.filter((s) => stored.has(s.agent_id));
      if (kept.length) {
        await execute(
          manager,
          `INSERT INTO agent_metrics AS m (agent_id, tier, bucket, samples, cpu_sum, cpu_max, memory_sum, memory_n,
             disk_sum, disk_n, rx_sum, tx_sum, load_sum, load_n)
           SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(agent_id int, tier int, bucket timestamptz, samples int,
             cpu_sum float8, cpu_max float8, memory_sum float8, memory_n int, disk_sum float8, disk_n int,
             rx_sum float8, tx_sum float8, load_sum float8, load_n int)
           ON CONFLICT (agent_id, tier, bucket) DO UPDATE SET
             samples = m.samples + excluded.samples, cpu_sum = m.cpu_sum + excluded.cpu_sum,
             cpu_max = greatest(m.cpu_max, excluded.cpu_max), memory_sum = m.memory_sum + excluded.memory_sum,
             memory_n = m.memory_n + excluded.memory_n, disk_sum = m.disk_sum + excluded.disk_sum,
             disk_n = m.disk_n + excluded.disk_n, rx_sum = m.rx_sum + excluded.rx_sum, tx_sum = m.tx_sum + excluded.tx_sum,
             load_sum = m.load_sum + excluded.load_sum, load_n = m.load_n + excluded.load_n`,
          [JSON.stringify(kept)],
        );
      }
      await upsertDeviceSums(
        manager,
        devices.filter((d) => stored.has(d.agent_id)),
      );
      const transitions = locked.filter((r) => r.previous !== 'active').map(transitionOf);
      announce(raise, transitions);
      const byId = new Map(locked.map((r) => [r.id, transitionOf(r).row]));
      for (const update of [...latest].sort((a, b) => a.at.getTime() - b.at.getTime())) {
        const row = byId.get(update.agentId);
        if (row)
          raise('agent.report_stored', {
            agent: toAgentDto(row),
            point: update.point,
            interfaces: update.figures.interfaces,
            insight: update.insight,
          });
      }
      return { stored, transitions };
    });
  }

  /**
   * Marks silent agents offline: a socket agent whose socket has been gone for the grace period, and any agent
   * not heard from for three intervals (an HTTP agent, or a socket whose server died without saying so).
   */
  async sweepInactive(graceSeconds: number): Promise<Transition[]> {
    return this.events.transaction(this.dataSource, async (manager, raise) => {
      const rows = await queryRows<RowWithPrevious>(
        manager,
        `UPDATE agents a SET status = 'inactive', updated_at = now()
         FROM (
           SELECT id, status AS previous, unreachable AS previous_unreachable FROM agents
           WHERE status <> 'inactive' AND (
             (disconnected_at IS NOT NULL AND disconnected_at < now() - make_interval(secs => $1))
             OR last_seen_at < now() - make_interval(secs => interval_s * 3 + CASE WHEN protocol = 'socket' THEN $1 ELSE 0 END)
           )
           ORDER BY id FOR UPDATE SKIP LOCKED
         ) p
         WHERE a.id = p.id
         RETURNING ${A_COLUMNS}, p.previous, p.previous_unreachable`,
        [graceSeconds],
      );
      const transitions = await this.markUnreachable(manager, rows.map(transitionOf));
      announce(raise, transitions);
      return transitions;
    });
  }

  /** Agents gone offline while a dependency is down are flagged `unreachable` (agent-state.ts), in the sweep's transaction. */
  private async markUnreachable(db: Sql, transitions: Transition[]): Promise<Transition[]> {
    const refs = transitions.flatMap(({ row }) => row.depends_on ?? []);
    if (!refs.length) return transitions;
    const states = await this.dependencies.statesOf(refs, db);
    const causes = new Map<number, DependencyRef & { name: string }>();
    for (const { row } of transitions) {
      const cause = unreachableCause(row.status, row.depends_on ?? [], states);
      if (cause) causes.set(row.id, { ...cause.ref, name: cause.name });
    }
    if (!causes.size) return transitions;
    await execute(db, `UPDATE agents SET unreachable = true WHERE id = ANY($1::int[])`, [[...causes.keys()]]);
    return transitions.map((t) => {
      const cause = causes.get(t.row.id);
      return cause ? { ...t, row: { ...t.row, unreachable: true }, cause } : t;
    });
  }

  /** Locks an HTTP agent's row and hands its kept counters to `update`, which returns the ones to keep. */
  async withCounters<T>(
    id: number,
    update: (kept: CounterState | null) => { result: T; counters: CounterState | null },
  ): Promise<T | null> {
    return this.dataSource.transaction(async (manager) => {
      const row = await queryRow<{ counters: CounterState | null }>(manager, `SELECT counters FROM agents WHERE id = $1 FOR UPDATE`, [id]);
      if (!row) return null;
      const { result, counters } = update(row.counters ?? null);
      await execute(manager, `UPDATE agents SET counters = $2, last_seen_at = now() WHERE id = $1`, [id, JSON.stringify(counters)]);
      return result;
    });
  }

  /** Chart points of one tier since `since`, oldest first. */
  /** The host's latest containers, sensors, disk I/O and services, and when they were reported; null: no such agent. */
  async insight(id: number): Promise<{ insight: HostInsight | null; at: Date | null } | null> {
    return queryRow<{ insight: HostInsight | null; at: Date | null }>(
      this.dataSource,
      `SELECT insight, last_report_at AS at FROM agents WHERE id = $1`,
      [id],
    );
  }

  async metrics(id: number, tier: Tier, since: Date): Promise<AgentMetricPoint[]> {
    const rows = await queryRows<MetricBucketRow>(
      this.dataSource,
      `SELECT bucket, samples, cpu_sum, cpu_max, memory_sum, memory_n, disk_sum, disk_n, rx_sum, tx_sum, load_sum, load_n
       FROM agent_metrics WHERE agent_id = $1 AND tier = $2 AND bucket >= $3 ORDER BY bucket`,
      [id, tier, since],
    );
    const avg = (sum: number, n: number) => (n > 0 ? Math.round((sum / n) * 100) / 100 : null);
    return rows.map((r) => ({
      time: new Date(r.bucket).toISOString(),
      cpu: avg(r.cpu_sum, r.samples) ?? 0,
      cpu_max: r.cpu_max,
      memory: avg(r.memory_sum, r.memory_n),
      disk: avg(r.disk_sum, r.disk_n),
      rx: avg(r.rx_sum, r.samples) ?? 0,
      tx: avg(r.tx_sum, r.samples) ?? 0,
      load1: avg(r.load_sum, r.load_n),
    }));
  }

  /** Drops points older than each tier's window, and registration tokens long expired. */
  async prune(cutoffs: Record<Tier, Date>): Promise<number> {
    let removed = 0;
    for (const [tier, cutoff] of Object.entries(cutoffs)) {
      removed += await execute(this.dataSource, `DELETE FROM agent_metrics WHERE tier = $1 AND bucket < $2`, [Number(tier), cutoff]);
      removed += await execute(this.dataSource, `DELETE FROM agent_device_metrics WHERE tier = $1 AND bucket < $2`, [Number(tier), cutoff]);
    }
    await execute(this.dataSource, `DELETE FROM agent_tokens WHERE expires_at < now() - interval '30 days'`);
    return removed;
  }
}

function transitionOf({ previous, previous_unreachable: previousUnreachable, ...row }: RowWithPrevious): Transition {
  return { row, previous, previousUnreachable };
}

/** Raises the real transitions, heard by the outbox inside the transaction that made them and by pushes after it. */
function announce(raise: Raise, transitions: Transition[]): void {
  for (const { row, previous, previousUnreachable, cause } of transitions) {
    if (row.status !== previous)
      raise('agent.status_changed', { ...statusChange(row, previous, previousUnreachable), ...(cause ? { cause } : {}) });
  }
}
