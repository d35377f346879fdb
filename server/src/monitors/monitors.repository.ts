import { Inject, Injectable } from '@nestjs/common';
import {
  UNSCHEDULED_TYPES,
  type DependencyRef,
  type HistoryPoint,
  type MonitorFilter,
  type MonitorStatus,
  type MonitorType,
} from '@vigil/proto';
import { DataSource, EntityManager, QueryFailedError } from 'typeorm';
import { conflict } from '../common/api-exception';
import { execute, queryRow, queryRows, type Sql } from '../database/rows';
import { DomainEvents, type Raise } from '../events/domain-events.service';
import type { DomainExpiry, PeerCertificate } from './checkers/checker';
import { APP_CONFIG } from '../config/config.module';
import type { AppConfig } from '../config/config';
import { DependenciesRepository } from './dependencies/dependencies.repository';
import { dependencyContext } from './dependencies/dependency-context';
import { coveredMonitors } from '../maintenance/coverage';
import { addToHourly } from './monitor-hourly';
import { deriveGroups, observeGroups } from './groups/group-derivation';
import { applyResults, type CheckStatus, MonitorState, oriented, stateOf, withState } from './monitor-state';
import { toCheckDto, toMonitorDto, toScheduled, uptimePercent } from './monitor.mapper';
import {
  certificateText,
  COLUMNS,
  FIELD_COLUMNS,
  seenByType,
  toParam,
  withoutStaleVerdicts,
  type MonitorFields,
  type SeenByType,
} from './monitor-rows';
import type { CheckRow, MonitorCounts, MonitorRow, ScheduledMonitor } from './monitor.types';

export { fieldsAsRow, type MonitorFields } from './monitor-rows';

export interface ListQuery {
  offset: number;
  limit: number | null;
  filter: MonitorFilter;
  status?: MonitorStatus;
  type?: MonitorType;
  search?: string;
  /** Monitors carrying this tag (normalised): `tags @>` uses the GIN index monitors_tags. */
  tag?: string;
  /** The grouped view: monitors in no group, or the members of one. */
  topLevel?: boolean;
  parentId?: number;
}

/** One finished check to store, with the time the monitor's regular rhythm comes round next. */
export interface ResultInput {
  monitorId: number;
  ok: boolean;
  statusCode: number | null;
  responseTime: number | null;
  error: string | null;
  checkedAt: Date;
  /** Null keeps the stored next check time (a manual check does not move the rhythm). */
  rhythmNext: Date | null;
  /**
   * The queued slot this check ran for (scale-out). Set, the result is dropped when the monitor was paused or a check
   * at or after the slot is already stored: a re-run of a dead instance's job never counts twice.
   */
  slotAt?: Date | null;
  /** The peer certificate the check saw; stored in `monitors.certificate` when set. */
  certificate?: PeerCertificate | null;
  /** The domain registration the check read (domain monitors), for expiry alerts. */
  domainExpiry?: DomainExpiry | null;
  /** A success on which a soft assertion failed: recorded degraded. */
  soft?: boolean;
  /** No location could judge it (see CheckOutcome.unreachable). */
  unreachable?: boolean;
  /** A push arrived (the push route): the wait for the next push starts at `checkedAt`. */
  pushed?: boolean;
  /**
   * A push monitor's "no push" verdict: stored only when the wait for a push (stored, or moved by a push in the same
   * batch) started more than this many seconds before `checkedAt`.
   */
  silentFor?: number;
}

export interface RecordedResult {
  /** The result as recorded: upside-down mode applied (monitor-state.ts `oriented`). */
  input: ResultInput;
  /** The result as handed in (the writer finds its caller by it). */
  received: ResultInput;
  checkId: number;
  previous: MonitorStatus;
  /** What the check recorded (up, degraded, down, unreachable). */
  check: CheckStatus;
  /** Unreachable: the dependency that was down, by name. */
  cause: (DependencyRef & { name: string }) | null;
  /** The flapping flag before this result. */
  wasFlapping: boolean;
  monitor: MonitorRow;
}

/** The only code that touches the monitor tables. Plain SQL: these queries are the hot path at 10,000 monitors. */
@Injectable()
export class MonitorsRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly events: DomainEvents,
    private readonly dependencies: DependenciesRepository,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async insert(fields: MonitorFields, nextCheckAt: Date | null, db: Sql = this.dataSource): Promise<MonitorRow> {
    const keys = Object.keys(FIELD_COLUMNS) as Array<keyof MonitorFields>;
    const values = keys.map((key) => toParam(key, fields[key]));
    const row = await queryRow<MonitorRow>(
      db,
      `INSERT INTO monitors (${keys.map((k) => FIELD_COLUMNS[k]).join(', ')}, next_check_at)
       VALUES (${keys.map((_, i) => `$${i + 1}`).join(', ')}, $${keys.length + 1})
       RETURNING ${COLUMNS}`,
      [...values, nextCheckAt],
    ).catch(refuseTakenPushToken);
    return row!;
  }

  async update(
    id: number,
    fields: Partial<MonitorFields>,
    extra: { nextCheckAt?: Date | null; resetState?: boolean } = {},
    db: Sql = this.dataSource,
  ): Promise<MonitorRow | null> {
    const sets: string[] = [];
    const params: unknown[] = [id];
    for (const [key, value] of Object.entries(fields) as Array<[keyof MonitorFields, unknown]>) {
      if (value === undefined) continue;
      params.push(toParam(key, value));
      sets.push(`${FIELD_COLUMNS[key]} = $${params.length}`);
    }
    if (extra.nextCheckAt !== undefined) {
      params.push(extra.nextCheckAt);
      sets.push(`next_check_at = $${params.length}`);
    }
    if (extra.resetState) sets.push(`consecutive_failures = 0`);
    sets.push('updated_at = now()');
    return queryRow<MonitorRow>(db, `UPDATE monitors SET ${sets.join(', ')} WHERE id = $1 RETURNING ${COLUMNS}`, params).catch(
      refuseTakenPushToken,
    );
  }

  delete(id: number, db: Sql = this.dataSource): Promise<MonitorRow | null> {
    return queryRow<MonitorRow>(db, `DELETE FROM monitors WHERE id = $1 RETURNING ${COLUMNS}`, [id]);
  }

  findById(id: number): Promise<MonitorRow | null> {
    return queryRow<MonitorRow>(this.dataSource, `SELECT ${COLUMNS} FROM monitors WHERE id = $1`, [id]);
  }

  /** The row locked until the transaction `db` ends: what an audited change compares against. */
  findForUpdate(id: number, db: Sql): Promise<MonitorRow | null> {
    return queryRow<MonitorRow>(db, `SELECT ${COLUMNS} FROM monitors WHERE id = $1 FOR UPDATE`, [id]);
  }

  findByPushToken(token: string): Promise<MonitorRow | null> {
    return queryRow<MonitorRow>(this.dataSource, `SELECT ${COLUMNS} FROM monitors WHERE push_token = $1 AND type = 'push'`, [token]);
  }

  async list(query: ListQuery): Promise<{ rows: MonitorRow[]; total: number }> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (query.filter === 'active') where.push('active');
    if (query.filter === 'paused') where.push('NOT active');
    if (query.status) {
      params.push(query.status);
      where.push(`status = $${params.length}`);
    }
    if (query.type) {
      params.push(query.type);
      where.push(`type = $${params.length}`);
    }
    if (query.tag) {
      params.push([query.tag]);
      where.push(`tags @> $${params.length}::text[]`);
    }
    if (query.topLevel) where.push('parent_id IS NULL');
    if (query.parentId !== undefined) {
      params.push(query.parentId);
      where.push(`parent_id = $${params.length}`);
    }
    if (query.search) {
      params.push(`%${query.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
      // The URL without its userinfo and query: a search must not reveal, letter by letter, credentials reads mask.
      where.push(
        `(name ILIKE $${params.length} OR regexp_replace(url, '^([A-Za-z][A-Za-z0-9+.-]*://)[^/?#]*@|[?#].*$', '\\1', 'g') ILIKE $${params.length})`,
      );
    }
    const condition = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const [{ total }] = await queryRows<{ total: number }>(
      this.dataSource,
      `SELECT count(*)::int AS total FROM monitors ${condition}`,
      params,
    );
    params.push(query.offset);
    let page = `OFFSET $${params.length}`;
    if (query.limit !== null) {
      params.push(query.limit);
      page += ` LIMIT $${params.length}`;
    }
    const rows = await queryRows<MonitorRow>(this.dataSource, `SELECT ${COLUMNS} FROM monitors ${condition} ORDER BY id ${page}`, params);
    return { rows, total };
  }

  async counts(): Promise<MonitorCounts> {
    const row = await queryRow<MonitorCounts>(
      this.dataSource,
      `
      SELECT count(*) FILTER (WHERE active AND status = 'up')::int AS up,
             count(*) FILTER (WHERE active AND status = 'down')::int AS down,
             count(*) FILTER (WHERE active AND status = 'pending')::int AS pending,
             count(*) FILTER (WHERE active AND status = 'degraded')::int AS degraded,
             count(*) FILTER (WHERE active AND status = 'unreachable')::int AS unreachable,
             count(*) FILTER (WHERE active AND status = 'maintenance')::int AS maintenance,
             count(*) FILTER (WHERE NOT active)::int AS paused,
             count(*)::int AS total
      FROM monitors`,
    );
    return row!;
  }

  /** The latest `limit` statuses of each monitor, oldest first, in one query. */
  async history(ids: number[], limit: number): Promise<Map<number, HistoryPoint[]>> {
    const result = new Map<number, HistoryPoint[]>(ids.map((id) => [id, []]));
    if (!ids.length) return result;
    const rows = await queryRows<{ monitor_id: number; status: MonitorStatus; checked_at: Date }>(
      this.dataSource,
      `SELECT c.monitor_id, c.status, c.checked_at
       FROM unnest($1::int[]) AS m(id)
       CROSS JOIN LATERAL (
         SELECT monitor_id, status, checked_at FROM monitor_checks
         WHERE monitor_id = m.id ORDER BY checked_at DESC LIMIT $2
       ) c`,
      [ids, limit],
    );
    for (const row of rows) result.get(row.monitor_id)!.unshift({ status: row.status, timestamp: row.checked_at.toISOString() });
    return result;
  }

  /** Successful and total checks of the last 24 hours per monitor, from the hourly aggregates. */
  async uptime24h(ids: number[], manager: EntityManager = this.dataSource.manager): Promise<Map<number, { up: number; checks: number }>> {
    const result = new Map<number, { up: number; checks: number }>();
    if (!ids.length) return result;
    const rows = await queryRows<{ monitor_id: number; up: number; checks: number }>(
      manager,
      `SELECT monitor_id, sum(up)::int AS up, sum(checks)::int AS checks FROM monitor_hourly
       WHERE monitor_id = ANY($1::int[]) AND hour > now() - interval '24 hours' GROUP BY monitor_id`,
      [ids],
    );
    for (const row of rows) result.set(row.monitor_id, { up: row.up, checks: row.checks });
    return result;
  }

  async checks(id: number, offset: number, limit: number): Promise<{ rows: CheckRow[]; total: number }> {
    const [{ total }] = await queryRows<{ total: number }>(
      this.dataSource,
      `SELECT count(*)::int AS total FROM monitor_checks WHERE monitor_id = $1`,
      [id],
    );
    const rows = await queryRows<CheckRow>(
      this.dataSource,
      `SELECT id::int, status, status_code, response_time, error, checked_at FROM monitor_checks
       WHERE monitor_id = $1 ORDER BY checked_at DESC, id DESC OFFSET $2 LIMIT $3`,
      [id, offset, limit],
    );
    return { rows, total };
  }

  /** Every active monitor, for the scheduler at start. */
  async loadActive(): Promise<ScheduledMonitor[]> {
    // A group is never checked (its status follows its members), nor a manual monitor (set by hand).
    const rows = await queryRows<MonitorRow>(this.dataSource, `SELECT ${COLUMNS} FROM monitors WHERE active AND type <> ALL($1::text[])`, [
      UNSCHEDULED_TYPES,
    ]);
    return rows.map(toScheduled);
  }

  /**
   * Stores a batch of check results in one transaction. The rows of the batch's monitors are locked first (in id order,
   * so concurrent batches cannot deadlock), the state machine (`monitor-state.ts`) decides each result on the state the
   * one before it left, and one statement writes the outcome: overlapping checks or several instances can never raise
   * one transition twice. Results of monitors deleted meanwhile, and dropped ones, are left out. Which monitors an
   * active maintenance window covers is read in the same transaction and handed to the machine. Raises
   * `monitor.checked` for each result and `monitor.status_changed` for each transition.
   */
  async recordResults(inputs: ResultInput[]): Promise<{ recorded: RecordedResult[]; uptime: Map<number, { up: number; checks: number }> }> {
    return this.events.transaction(this.dataSource, async (manager, raise) => {
      // A batch of checks commits without waiting for its WAL flush: a crash may lose the last moments of checks
      // (the WAL writer flushes within 3 × wal_writer_delay), never corrupt; the WAL is flushed once per delay, not per batch.
      await execute(manager, `SET LOCAL synchronous_commit = off`);
      const ids = [...new Set(inputs.map((input) => input.monitorId))].sort((a, b) => a - b);
      const locked = await queryRows<MonitorRow>(
        manager,
        `SELECT ${COLUMNS} FROM monitors WHERE id = ANY($1::int[]) ORDER BY id FOR UPDATE`,
        [ids],
      );
      const rows = new Map(locked.map((row) => [row.id, row]));
      const { flappingChanges: changes, flappingWindowMs: windowMs } = this.config.monitors;
      const context = await dependencyContext(this.dependencies, manager, locked, { changes, windowMs });
      const maintenance = await coveredMonitors(manager, ids);
      const { steps, final } = applyResults(
        new Map(locked.map((row) => [row.id, stateOf(row)])),
        withoutStaleVerdicts(inputs, rows).map((received) => {
          const input = oriented(received, rows.get(received.monitorId)?.upside_down ?? false);
          return { ...input, slotAt: input.slotAt ?? null, input, received };
        }),
        { ...context, maintenance },
      );
      if (!steps.length) return { recorded: [], uptime: new Map() };
      const seen = seenByType(steps.map((step) => step.outcome.input));
      await this.writeStates(manager, final, seen);
      await this.writeSeenApart(manager, seen, final);
      for (const [id, certificate] of seen.certificates) rows.set(id, { ...rows.get(id)!, certificate });
      const updated = steps.map(({ outcome, previous, state, check, cause }) => ({
        input: outcome.input,
        received: outcome.received,
        previous: previous.status,
        check,
        cause: cause && { ...cause, name: context.names.get(`${cause.type}:${cause.id}`) ?? '' },
        wasFlapping: previous.flapping,
        monitor: withState(rows.get(outcome.monitorId)!, state),
      }));

      const inserted = await queryRows<{ id: string }>(
        manager,
        `INSERT INTO monitor_checks (monitor_id, status, status_code, response_time, error, checked_at)
         SELECT * FROM unnest($1::int[], $2::varchar[], $3::int[], $4::int[], $5::text[], $6::timestamptz[])
         RETURNING id`,
        [
          updated.map((u) => u.input.monitorId),
          updated.map((u) => u.check),
          updated.map((u) => u.input.statusCode),
          updated.map((u) => u.input.responseTime),
          updated.map((u) => u.input.error),
          updated.map((u) => u.input.checkedAt),
        ],
      );

      await addToHourly(manager, updated);
      const uptime = await this.uptime24h([...new Set(updated.map((u) => u.input.monitorId))], manager);
      const recorded = updated.map((u, i) => ({ ...u, checkId: Number(inserted[i].id) }));
      for (const result of recorded) announce(raise, result, uptime.get(result.input.monitorId));
      // The groups above monitors that moved follow them in this transaction (monitors/groups).
      await deriveGroups(
        manager,
        raise,
        recorded.filter((r) => r.previous !== r.monitor.status).map((r) => r.monitor.id),
      );
      await observeGroups(manager, ids);
      return { recorded, uptime };
    });
  }

  /**
   * Writes each monitor's state after its results, one statement for the batch, with what its results saw beyond
   * the state machine (`SeenByType`): a monitor that saw none keeps what is stored (COALESCE and GREATEST skip nulls).
   */
  private async writeStates(manager: EntityManager, states: Map<number, MonitorState>, seen: SeenByType): Promise<void> {
    if (!states.size) return;
    const entries = [...states];
    await execute(
      manager,
      `UPDATE monitors m SET status = v.status, consecutive_failures = v.failures, response_time = v.response_time,
         last_checked = v.last_checked, next_check_at = v.next_check_at,
         certificate = COALESCE(v.certificate::jsonb, m.certificate),
         push_awaited_since = GREATEST(m.push_awaited_since, v.pushed_at),
         flapping = v.flapping, recent_changes = ARRAY(SELECT jsonb_array_elements_text(v.recent_changes::jsonb)::timestamptz)
       FROM unnest($1::int[], $2::varchar[], $3::int[], $4::int[], $5::timestamptz[], $6::timestamptz[], $7::text[], $8::timestamptz[],
         $9::boolean[], $10::text[])
         AS v(id, status, failures, response_time, last_checked, next_check_at, certificate, pushed_at, flapping, recent_changes)
       WHERE m.id = v.id`,
      [
        entries.map(([id]) => id),
        entries.map(([, state]) => state.status),
        entries.map(([, state]) => state.consecutiveFailures),
        entries.map(([, state]) => state.responseTime),
        entries.map(([, state]) => state.lastChecked),
        entries.map(([, state]) => state.nextCheckAt),
        entries.map(([id]) => certificateText(seen.certificates.get(id))),
        entries.map(([id]) => seen.pushes.get(id) ?? null),
        entries.map(([, state]) => state.flapping),
        // A list per row: unnest flattens arrays of arrays, so each goes as JSON text.
        entries.map(([, state]) => JSON.stringify(state.recentChanges)),
      ],
    );
  }

  /** What was seen of monitors whose state did not move (only stale results of theirs in the batch): rare, apart. */
  private async writeSeenApart(manager: EntityManager, seen: SeenByType, states: Map<number, MonitorState>): Promise<void> {
    const certificates = [...seen.certificates].filter(([id]) => !states.has(id));
    if (certificates.length) {
      await execute(
        manager,
        `UPDATE monitors m SET certificate = v.certificate::jsonb
         FROM unnest($1::int[], $2::text[]) AS v(id, certificate) WHERE m.id = v.id`,
        [certificates.map(([id]) => id), certificates.map(([, stored]) => certificateText(stored))],
      );
    }
    const pushes = [...seen.pushes].filter(([id]) => !states.has(id));
    if (pushes.length) {
      await execute(
        manager,
        `UPDATE monitors m SET push_awaited_since = GREATEST(m.push_awaited_since, v.at)
         FROM unnest($1::int[], $2::timestamptz[]) AS v(id, at) WHERE m.id = v.id`,
        [pushes.map(([id]) => id), pushes.map(([, at]) => at)],
      );
    }
  }

  /** Deletes raw checks and aggregates past their retention, in bounded chunks so no lock is held for long. */
  async prune(checksBefore: Date, aggregatesBefore: Date, chunk = 10_000): Promise<{ checks: number; aggregates: number }> {
    // monitor_checks has no index on checked_at alone (each index costs every check a write): its old rows are found
    // per monitor through (monitor_id, checked_at). Each location's results (location_checks) are raw checks too, kept as long.
    const statements = [
      // ANY(ARRAY(…)): the ids reach the rows through the primary key (an IN here planned a scan of the whole table).
      `DELETE FROM monitor_checks WHERE id = ANY(ARRAY(
         SELECT c.id FROM monitors m
         CROSS JOIN LATERAL (SELECT id FROM monitor_checks WHERE monitor_id = m.id AND checked_at < $1 LIMIT $2) c LIMIT $2)) RETURNING 1`,
      `DELETE FROM location_checks WHERE id IN (SELECT id FROM location_checks WHERE checked_at < $1 LIMIT $2) RETURNING 1`,
    ];
    let checks = 0;
    for (const statement of statements) {
      for (;;) {
        const count = await execute(this.dataSource, statement, [checksBefore, chunk]);
        checks += count;
        if (count < chunk) break;
      }
    }
    const aggregates = await execute(this.dataSource, `DELETE FROM monitor_hourly WHERE hour < $1 RETURNING 1`, [aggregatesBefore]);
    return { checks, aggregates };
  }
}

/** A push token is unique: a chosen one already in use is the caller's mistake (409), not a failure. */
function refuseTakenPushToken(error: unknown): never {
  const failure = error instanceof QueryFailedError ? (error.driverError as { code?: string; constraint?: string }) : null;
  if (failure?.code === '23505' && failure.constraint === 'monitors_push_token') throw conflict('monitors.pushTokenTaken');
  if (failure?.code === '23505' && failure.constraint === 'monitors_key_unique') throw conflict('monitors.keyTaken');
  throw error;
}

/** The events of one stored result: `monitor` as it stands after the result, with the monitor's 24-hour uptime. */
function announce(raise: Raise, result: RecordedResult, uptime: { up: number; checks: number } | undefined): void {
  const { input, previous, cause } = result;
  const check = toCheckDto({
    id: result.checkId,
    status: result.check,
    status_code: input.statusCode,
    response_time: input.responseTime,
    error: input.error,
    checked_at: input.checkedAt,
  });
  const monitor = toMonitorDto(result.monitor, { uptime });
  raise('monitor.checked', {
    monitor,
    check,
    uptime: uptimePercent(uptime?.up ?? 0, uptime?.checks ?? 0),
    certificate: input.certificate ?? null,
    domainExpiry: input.domainExpiry ?? null,
  });
  if (previous !== monitor.status) raise('monitor.status_changed', { monitor, previous, status: monitor.status, check, cause });
  if (result.wasFlapping !== monitor.flapping) raise('monitor.flapping_changed', { monitor, flapping: monitor.flapping, check });
}
