import type { CheckDto } from '@vigil/proto';
import { anyWindowActive, coveredMonitors } from '../maintenance/coverage';
import { execute, queryRows, type Sql } from '../database/rows';
import type { Raise } from '../events/domain-events.service';
import { deriveGroups } from './groups/group-derivation';
import { enterMaintenance, stateOf, withState } from './monitor-state';
import { toMonitorDto } from './monitor.mapper';
import { COLUMNS } from './monitor-rows';
import type { MonitorRow } from './monitor.types';

/**
 * Monitors moving with maintenance windows, outside a check (a check's own result is decided by `recordResults`
 * with the window as the machine's input). In the caller's transaction, as the group derivation is.
 */

/**
 * A window started covering these monitors: each one checked and not yet in maintenance is locked (id order, as
 * every writer locks) and moved by the state machine (`enterMaintenance`), raising `monitor.status_changed` with a
 * check of its own kind (not stored, id 0); nothing is sent for such a move (notifications/rules.ts). The groups above
 * them, and the groups `groups`, follow (`deriveGroups`, which reads the windows too). Answers the monitors that moved.
 */
export async function moveIntoMaintenance(db: Sql, raise: Raise, ids: number[], groups: number[], at: Date): Promise<number[]> {
  const locked = ids.length
    ? await queryRows<MonitorRow>(
        db,
        `SELECT ${COLUMNS} FROM monitors WHERE id = ANY($1::int[]) AND active AND type <> 'group' AND status <> 'maintenance'
         ORDER BY id FOR UPDATE`,
        [ids],
      )
    : [];
  const moved = locked.flatMap((row) => {
    const next = enterMaintenance(stateOf(row));
    return next ? [{ row: withState(row, next), previous: row.status }] : [];
  });
  if (moved.length) {
    await execute(db, `UPDATE monitors SET status = 'maintenance' WHERE id = ANY($1::int[])`, [moved.map(({ row }) => row.id)]);
    const check: CheckDto = {
      id: 0,
      status: 'maintenance',
      status_code: null,
      response_time: null,
      error: null,
      checked_at: at.toISOString(),
    };
    for (const { row, previous } of moved) {
      raise('monitor.status_changed', { monitor: toMonitorDto(row), previous, status: 'maintenance', check, cause: null });
    }
  }
  const movedIds = moved.map(({ row }) => row.id);
  await deriveGroups(db, raise, movedIds, groups, at);
  return movedIds;
}

/**
 * Moves every monitor that an active window covers and that is not in maintenance yet (a window started, its scope
 * grew, a monitor was created or joined a covered group): the moment a window applies, not at each monitor's next
 * check. Cheap when no window is active (the coverage walk does not start).
 */
export async function moveCoveredIntoMaintenance(db: Sql, raise: Raise, at: Date): Promise<number[]> {
  if (!(await anyWindowActive(db))) return [];
  const candidates = await queryRows<{ id: number; type: string }>(
    db,
    `SELECT id, type FROM monitors WHERE active AND status <> 'maintenance' ORDER BY id`,
  );
  const covered = await coveredMonitors(
    db,
    candidates.map((row) => row.id),
  );
  const chosen = candidates.filter((row) => covered.has(row.id));
  return moveIntoMaintenance(
    db,
    raise,
    chosen.filter((row) => row.type !== 'group').map((row) => row.id),
    chosen.filter((row) => row.type === 'group').map((row) => row.id),
    at,
  );
}

/**
 * Checked monitors still shown in maintenance although no active window covers them any more: their next check
 * decides where they go (the caller checks them at once when a window ends).
 */
export async function leftMaintenance(db: Sql): Promise<MonitorRow[]> {
  const rows = await queryRows<MonitorRow>(
    db,
    `SELECT ${COLUMNS} FROM monitors WHERE status = 'maintenance' AND active AND type <> 'group'`,
  );
  const covered = await coveredMonitors(
    db,
    rows.map((row) => row.id),
  );
  return rows.filter((row) => !covered.has(row.id));
}

/** Group monitors shown in maintenance: after a window ends, their members decide again (`deriveGroups`). */
export async function groupsInMaintenance(db: Sql): Promise<number[]> {
  const rows = await queryRows<{ id: number }>(db, `SELECT id FROM monitors WHERE status = 'maintenance' AND type = 'group' AND active`);
  return rows.map((row) => row.id);
}
