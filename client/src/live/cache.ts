import type { AgentDto, AlertDto, MonitorDto, OverallStatus, PublicAgent, PublicMonitor, StatusPageSettings } from '@vigil/proto';
import { alertStamp } from '../features/alerts/live';
import { keepLiveFigures } from '../features/monitors/live';
import { createEntityTable } from './entityTable';

/** The status page's settings, banner and update time: everything of it but its items. */
export interface StatusPageHead extends StatusPageSettings {
  id: number;
  overall: OverallStatus;
  updated_at: string;
}

/**
 * The client's one cache of server state: a table per kind of row, keyed by id, with each screen's id list. Stores of
 * screens hold ids and query state only; the realtime module writes pushes here once, whatever screen shows the row.
 */
export const liveCache = {
  /** A read older than the last pushed check keeps the check's figures (status, uptime, history). */
  monitors: createEntityTable<MonitorDto>({ stampOf: (monitor) => monitor.last_checked, whenOlder: keepLiveFigures }),
  /**
   * Dated by the agent's last report (`updated_at`): a read answered before a pushed report was stored keeps the
   * pushed figures instead of showing the agent without them until its next report.
   */
  agents: createEntityTable<AgentDto>({ stampOf: (agent) => agent.updated_at }),
  /**
   * Public items, dated by the projection they came with (its `updated_at`): the status page's (selected items, with
   * their history) and the wall's (every item, no history) are different reads of a monitor, so each has its table.
   */
  statusMonitors: createEntityTable<PublicMonitor>(),
  statusAgents: createEntityTable<PublicAgent>(),
  wallMonitors: createEntityTable<PublicMonitor>(),
  wallAgents: createEntityTable<PublicAgent>(),
  /** The status page's own figures (one row): a read older than a pushed banner keeps the banner. */
  /** Alerts, dated by their newest change: a read answered before a pushed acknowledgement or message keeps the push. */
  alerts: createEntityTable<AlertDto>({ stampOf: alertStamp }),
  statusPages: createEntityTable<StatusPageHead>({
    whenOlder: (held, read) => ({ ...read, overall: held.overall, updated_at: held.updated_at }),
  }),
};

/** Forgets every cached row (tests start from an empty cache). */
export function clearLiveCache(): void {
  for (const table of Object.values(liveCache)) table.clear();
}
