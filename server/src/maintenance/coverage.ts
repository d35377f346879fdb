import { MONITOR_TYPE_LIMITS } from '@vigil/proto';
import { queryRows, type Sql } from '../database/rows';

/**
 * What maintenance windows cover, decided in SQL in one place: a window covers everything (`all_targets`), the
 * monitors and agents it names, and the group monitors it names with every monitor inside them, transitively (a
 * group named among `monitors` covers only itself). Read by the state machine's writer for each batch (active
 * windows), by the sweep, and by reads that show a window's components.
 */

/** Which windows count: those applied now (the sweep's state), every window, or these by id whatever their state. */
export type WindowSelection = 'active' | 'all' | number[];

const DEPTH = MONITOR_TYPE_LIMITS.groupDepthMax;

function windowsSql(selection: WindowSelection, param: number): string {
  if (selection === 'active') return 'applied_start IS NOT NULL';
  return selection === 'all' ? 'true' : `id = ANY($${param}::int[])`;
}

const listed = (selection: WindowSelection): selection is number[] => Array.isArray(selection);

/**
 * Each (window, monitor) pair among `monitorIds`: the monitors walk up to their groups (bounded by the nesting
 * limit); a pair holds when the window covers all, names the monitor, or names one of its groups as a group. No
 * window selected: no walk.
 */
export async function monitorCoverage(
  db: Sql,
  monitorIds: number[],
  selection: WindowSelection = 'active',
): Promise<Array<{ window_id: number; monitor_id: number }>> {
  if (!monitorIds.length || (listed(selection) && !selection.length)) return [];
  return queryRows<{ window_id: number; monitor_id: number }>(
    db,
    `WITH RECURSIVE w AS (
       SELECT id, all_targets FROM maintenance WHERE ${windowsSql(selection, 3)}
     ), up(id, ancestor, depth) AS (
       SELECT m.id, m.id, 0 FROM unnest($1::int[]) AS m(id) WHERE EXISTS (SELECT 1 FROM w)
       UNION ALL
       SELECT up.id, p.parent_id, up.depth + 1 FROM up JOIN monitors p ON p.id = up.ancestor
       WHERE p.parent_id IS NOT NULL AND up.depth < $2
     )
     SELECT DISTINCT w.id AS window_id, up.id AS monitor_id FROM up CROSS JOIN w
     WHERE w.all_targets OR EXISTS (
       SELECT 1 FROM maintenance_targets t
       WHERE t.maintenance_id = w.id AND t.monitor_id = up.ancestor AND (up.depth = 0 OR t.kind = 'group'))`,
    listed(selection) ? [monitorIds, DEPTH, selection] : [monitorIds, DEPTH],
  );
}

/** Whether any window is applied now (most of the time none is, and coverage need not be asked). */
export async function anyWindowActive(db: Sql): Promise<boolean> {
  const rows = await queryRows<{ active: boolean }>(
    db,
    `SELECT EXISTS (SELECT 1 FROM maintenance WHERE applied_start IS NOT NULL) AS active`,
  );
  return rows[0].active;
}

/** The monitors among `monitorIds` that an active window covers now. */
export async function coveredMonitors(db: Sql, monitorIds: number[]): Promise<Set<number>> {
  return new Set((await monitorCoverage(db, monitorIds)).map((pair) => pair.monitor_id));
}

/** Each (window, agent) pair: among `agentIds`, or over every agent when null. */
export async function agentCoverage(
  db: Sql,
  agentIds: number[] | null,
  selection: WindowSelection = 'active',
): Promise<Array<{ window_id: number; agent_id: number }>> {
  if ((agentIds && !agentIds.length) || (listed(selection) && !selection.length)) return [];
  const params: unknown[] = listed(selection) ? [selection] : [];
  let among = '';
  if (agentIds) {
    params.push(agentIds);
    among = `WHERE a.id = ANY($${params.length}::int[])`;
  }
  return queryRows<{ window_id: number; agent_id: number }>(
    db,
    `WITH w AS (SELECT id, all_targets FROM maintenance WHERE ${windowsSql(selection, 1)})
     SELECT DISTINCT w.id AS window_id, a.id AS agent_id FROM w JOIN agents a
       ON w.all_targets OR EXISTS (SELECT 1 FROM maintenance_targets t WHERE t.maintenance_id = w.id AND t.agent_id = a.id)
     ${among}`,
    params,
  );
}
