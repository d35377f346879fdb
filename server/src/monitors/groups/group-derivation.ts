import { MONITOR_TYPE_LIMITS, type CheckDto, type GroupRule, type MonitorStatus } from '@vigil/proto';
import { execute, queryRows, type Sql } from '../../database/rows';
import type { Raise } from '../../events/domain-events.service';
import { toMonitorDto } from '../monitor.mapper';
import { COLUMNS } from '../monitor-rows';
import type { MonitorRow } from '../monitor.types';
import { coveredMonitors } from '../../maintenance/coverage';
import { groupStatus, groupSummary, type GroupVerdict } from './group-status';

const DEPTH = MONITOR_TYPE_LIMITS.groupDepthMax;

/** The groups above these monitors: their parents, the parents' parents, … (bounded, whatever is stored). */
export async function ancestorGroups(db: Sql, ids: number[]): Promise<number[]> {
  if (!ids.length) return [];
  const rows = await queryRows<{ id: number }>(
    db,
    `WITH RECURSIVE up(id, depth) AS (
       SELECT parent_id, 1 FROM monitors WHERE id = ANY($1::int[]) AND parent_id IS NOT NULL
       UNION
       SELECT m.parent_id, up.depth + 1 FROM monitors m JOIN up ON m.id = up.id
       WHERE m.parent_id IS NOT NULL AND up.depth <= $2
     )
     SELECT DISTINCT id FROM up`,
    [ids, DEPTH],
  );
  return rows.map((row) => row.id);
}

/** The groups below a group: its member groups, theirs, … (bounded), the group itself first. */
export async function groupAndDescendants(db: Sql, id: number): Promise<Array<{ id: number; type: string }>> {
  return queryRows<{ id: number; type: string }>(
    db,
    `WITH RECURSIVE down(id, type, depth) AS (
       SELECT id, type, 0 FROM monitors WHERE id = $1
       UNION
       SELECT m.id, m.type, down.depth + 1 FROM monitors m JOIN down ON m.parent_id = down.id
       WHERE down.type = 'group' AND down.depth <= $2
     )
     SELECT id, type FROM down`,
    [id, DEPTH],
  );
}

/**
 * Recomputes the groups above `changed` (monitors whose status or membership moved) and the groups `also` with theirs
 * (a group edited, resumed, or left by a member), and stores those whose status moves, each move as a check of the
 * group, raising `monitor.checked` and `monitor.status_changed` for each as for a checked monitor. Runs in the
 * caller's transaction: the groups are locked in id order after whatever the caller locked (members first, the one
 * order every writer keeps), and members are read under those locks, so concurrent batches end on the same verdict.
 * Inner groups are decided before the groups holding them; paused groups keep their status. A group an active
 * maintenance window covers is in maintenance (read in the same transaction).
 */
export async function deriveGroups(db: Sql, raise: Raise, changed: number[], also: number[] = [], at = new Date()): Promise<MonitorRow[]> {
  const ids = [...new Set([...(await ancestorGroups(db, [...changed, ...also])), ...also])];
  if (!ids.length) return [];
  const groups = await queryRows<MonitorRow>(
    db,
    `SELECT ${COLUMNS} FROM monitors WHERE id = ANY($1::int[]) AND type = 'group' ORDER BY id FOR UPDATE`,
    [ids],
  );
  const members = await queryRows<{ id: number; parent_id: number; status: MonitorStatus; active: boolean }>(
    db,
    `SELECT id, parent_id, status, active FROM monitors WHERE parent_id = ANY($1::int[])`,
    [groups.map((group) => group.id)],
  );
  const statuses = new Map<number, MonitorStatus>(members.map((member) => [member.id, member.status]));
  const covered = await coveredMonitors(
    db,
    groups.map((group) => group.id),
  );
  const pending = new Map(groups.map((group) => [group.id, group]));
  const moved: Array<{ row: MonitorRow; previous: MonitorStatus; verdict: GroupVerdict; members: number }> = [];
  // Inner groups first: a group waits while one of its member groups is still to be decided (no cycle is stored).
  for (let pass = 0; pending.size && pass <= DEPTH; pass++) {
    for (const group of [...pending.values()]) {
      const own = members.filter((member) => member.parent_id === group.id);
      if (own.some((member) => pending.has(member.id) && member.id !== group.id)) continue;
      pending.delete(group.id);
      if (!group.active) continue;
      const verdict = groupStatus({
        rule: (group.settings?.groupRule as GroupRule | undefined) ?? 'any',
        min: (group.settings?.groupMin as number | undefined) ?? null,
        members: own.filter((member) => member.active).map((member) => statuses.get(member.id)!),
        maintenance: covered.has(group.id),
      });
      statuses.set(group.id, verdict.status);
      if (verdict.status === group.status) continue;
      moved.push({ row: { ...group, status: verdict.status, last_checked: at }, previous: group.status, verdict, members: own.length });
    }
  }
  if (!moved.length) return [];
  await execute(
    db,
    `UPDATE monitors m SET status = v.status, last_checked = $3 FROM unnest($1::int[], $2::varchar[]) AS v(id, status) WHERE m.id = v.id`,
    [moved.map(({ row }) => row.id), moved.map(({ row }) => row.status), at],
  );
  // A move the history can tell (down, degraded, maintenance, up) is kept as the group's check, so its history and live pushes
  // read like any monitor's; a move between up and pending (a member retrying or new) is a status change only.
  const shown = moved.filter(({ previous, verdict }) => checkStatus(previous) !== checkStatus(verdict.status));
  const inserted = await queryRows<{ id: string }>(
    db,
    `INSERT INTO monitor_checks (monitor_id, status, error, checked_at)
     SELECT * FROM unnest($1::int[], $2::varchar[], $3::text[], $4::timestamptz[]) RETURNING id`,
    [
      shown.map(({ row }) => row.id),
      shown.map(({ verdict }) => checkStatus(verdict.status)),
      shown.map(({ verdict }) => (verdict.down ? groupSummary(verdict) : null)),
      shown.map(() => at),
    ],
  );
  const stored = new Map(shown.map(({ row }, index) => [row.id, Number(inserted[index].id)]));
  for (const { row, previous, verdict, members: count } of moved) {
    const monitor = toMonitorDto(row, { members: count });
    const check: CheckDto = {
      id: stored.get(row.id) ?? 0,
      status: checkStatus(verdict.status),
      status_code: null,
      response_time: null,
      error: verdict.down ? groupSummary(verdict) : null,
      checked_at: at.toISOString(),
    };
    if (stored.has(row.id)) raise('monitor.checked', { monitor, check, uptime: monitor.uptime, certificate: null });
    raise('monitor.status_changed', { monitor, previous, status: verdict.status, check });
  }
  return moved.map(({ row }) => row);
}

/**
 * Folds one observation of each group above the checked monitors into its hourly aggregates, with its status after
 * the batch (down counts as failed, degraded apart, pending as up, maintenance neither way), so its uptime and stats weigh how long it was
 * down, as sampled by its members' checks, not only its few transitions. In the writer's transaction, after
 * `deriveGroups`; the rows are upserted in id order, so concurrent batches wait on each other but never deadlock.
 */
export async function observeGroups(db: Sql, checked: number[], at = new Date()): Promise<void> {
  const ids = await ancestorGroups(db, checked);
  if (!ids.length) return;
  await execute(
    db,
    `INSERT INTO monitor_hourly AS h (monitor_id, hour, checks, up, response_sum, response_count, response_max, degraded, unreachable,
       maintenance)
     SELECT id, $2::timestamptz, (status <> 'maintenance')::int, (status NOT IN ('down', 'unreachable', 'maintenance'))::int, 0, 0, NULL,
       (status = 'degraded')::int, 0, (status = 'maintenance')::int
     FROM monitors WHERE id = ANY($1::int[]) AND type = 'group' AND active ORDER BY id
     ON CONFLICT (monitor_id, hour) DO UPDATE SET checks = h.checks + excluded.checks, up = h.up + excluded.up,
       degraded = h.degraded + excluded.degraded, maintenance = h.maintenance + excluded.maintenance`,
    // The hour as addToHourly floors it (UTC), whatever the session's time zone.
    [ids, new Date(Math.floor(at.getTime() / 3_600_000) * 3_600_000)],
  );
}

/** How a group's status reads as a check: pending is up (nothing in it is down). */
function checkStatus(status: MonitorStatus): CheckDto['status'] {
  return status === 'down' || status === 'degraded' || status === 'maintenance' ? status : 'up';
}

/** How many monitors each of these groups holds (paused ones included), for reads. */
export async function memberCounts(db: Sql, ids: number[]): Promise<Map<number, number>> {
  if (!ids.length) return new Map();
  const rows = await queryRows<{ parent_id: number; count: number }>(
    db,
    `SELECT parent_id, count(*)::int AS count FROM monitors WHERE parent_id = ANY($1::int[]) GROUP BY parent_id`,
    [ids],
  );
  return new Map(rows.map((row) => [row.parent_id, row.count]));
}
