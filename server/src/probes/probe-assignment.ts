import { createHash } from 'node:crypto';
import { agentLocation, isProbeType, PROBE_LIMITS, type ProbeAssignment, type ProbeAssignmentsMessage } from '@vigil/proto';
import { toCheckTarget } from '../monitors/monitor.mapper';
import type { MonitorRow } from '../monitors/monitor.types';

/** What an assignment is built from: a check target's columns, and whether and where the monitor runs. */
export type AssignableRow = Parameters<typeof toCheckTarget>[0] & Pick<MonitorRow, 'active' | 'locations'>;

/** Whether `agentId` should run the monitor now: active, of a type agents run, and naming that agent's location. */
export function isAssignedTo(row: AssignableRow, agentId: number): boolean {
  return row.active && isProbeType(row.type) && (row.locations ?? []).includes(agentLocation(agentId));
}

/**
 * The check as the agent runs it: the checker's own target without what stays on the server (the row id, the outbound
 * scope, which protects the server's network, not the agent's) and what the assignment carries beside it. Secrets are
 * in clear: only the agent it is assigned to ever receives it, and nothing logs it.
 */
export function toProbeAssignment(row: AssignableRow): ProbeAssignment {
  if (!isProbeType(row.type)) throw new Error(`Monitor ${row.id} of type ${row.type} cannot run on an agent`);
  const { id: _id, scope: _scope, timeout, assertions, ...target } = toCheckTarget(row);
  const unrevised = { monitor_id: row.id, type: row.type, interval: row.interval_s, timeout, target, assertions };
  return { ...unrevised, revision: revisionOf(unrevised) };
}

/** Short sha256 of what the agent is given: equal for an unchanged check (JSON of the same row is built in one order). */
function revisionOf(assignment: Omit<ProbeAssignment, 'revision'>): string {
  return createHash('sha256').update(JSON.stringify(assignment)).digest('base64url').slice(0, 16);
}

export interface AssignmentsDiff extends Pick<ProbeAssignmentsMessage, 'upsert' | 'remove'> {
  /** What the agent runs after the change: monitor id → revision. */
  held: Map<number, string>;
  /** Assignments left out beyond `max` (the lowest monitor ids are kept). */
  cut: number;
}

/**
 * The change from what an agent runs (`held`: monitor id → revision) to what it should run (`next`, any order): the
 * new and changed checks to send and the ids to drop. `next` keeps its `max` lowest monitor ids, so the set an agent
 * runs is the same whichever order monitors were assigned in.
 */
export function diffAssignments(
  held: ReadonlyMap<number, string>,
  next: readonly ProbeAssignment[],
  max: number = PROBE_LIMITS.assignmentsMax,
): AssignmentsDiff {
  const kept = [...next].sort((a, b) => a.monitor_id - b.monitor_id).slice(0, max);
  const keptIds = new Set(kept.map((assignment) => assignment.monitor_id));
  return {
    upsert: kept.filter((assignment) => held.get(assignment.monitor_id) !== assignment.revision),
    remove: [...held.keys()].filter((id) => !keptIds.has(id)).sort((a, b) => a - b),
    held: new Map(kept.map((assignment) => [assignment.monitor_id, assignment.revision])),
    cut: next.length - kept.length,
  };
}
