import type { GroupRule, MonitorStatus } from '@vigil/proto';

/** What a group's status is derived from: its rule and the statuses of its active members (paused ones left out). */
export interface GroupInput {
  rule: GroupRule;
  /** Rule `atLeast`: members down that make the group down (more than it has: all of them). */
  min: number | null;
  members: readonly MonitorStatus[];
  /** An active maintenance window covers the group itself. */
  maintenance?: boolean;
}

/** The derived status, with the counts it came from (for the line that stands in for a check's error). */
export interface GroupVerdict {
  status: MonitorStatus;
  down: number;
  total: number;
}

/**
 * A group's status from its members'. `down` and `unreachable` members count as down; the group is down when the
 * rule's count of them is reached (any: one, all: every member, atLeast: `min`). Short of that, a member down or
 * degraded makes it `degraded` (something is wrong, not enough for the rule), else a pending member makes it
 * `pending`. A group with no active member is `up`: nothing in it is failing. Members in maintenance are left out
 * (planned work is no failure); a group whose members all are, or that a window covers itself, is in maintenance.
 */
export function groupStatus({ rule, min, members: all, maintenance = false }: GroupInput): GroupVerdict {
  const members = all.filter((status) => status !== 'maintenance');
  const total = members.length;
  const down = members.filter((status) => status === 'down' || status === 'unreachable').length;
  const verdict = (status: MonitorStatus): GroupVerdict => ({ status, down, total });
  if (maintenance || (total === 0 && all.length > 0)) return verdict('maintenance');
  if (total === 0) return verdict('up');
  const needed = rule === 'any' ? 1 : rule === 'all' ? total : Math.min(Math.max(min ?? 1, 1), total);
  if (down >= needed) return verdict('down');
  if (down > 0 || members.includes('degraded')) return verdict('degraded');
  if (members.includes('pending')) return verdict('pending');
  return verdict('up');
}

/** The line a group's transition carries where a check would carry its error, e.g. "2 of 3 members down". */
export function groupSummary({ down, total }: GroupVerdict): string {
  return `${down} of ${total} member${total === 1 ? '' : 's'} down`;
}
