import type { AgentDto, AlertDto, IncidentDto, MaintenanceDto, MonitorDto, PublicAgent, WallMonitor } from '@vigil/proto';
import { alertStamp } from '../features/alerts/live';
import type { MonitorLocations } from '../features/monitors/locations';
import { keepLiveFigures } from '../features/monitors/live';
import { createEntityTable } from './entityTable';

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
   * Each monitor's locations, keyed by monitor id. Not dated as a whole: reads and pushes are merged location by
   * location (the newer result of each wins) before they are written (see `features/monitors/locations`).
   */
  monitorLocations: createEntityTable<MonitorLocations>(),
  /** The wall's items (every item, no history), dated by the projection they came with (its `updated_at`). */
  wallMonitors: createEntityTable<WallMonitor>(),
  wallAgents: createEntityTable<PublicAgent>(),
  /** Alerts, dated by their newest change: a read answered before a pushed acknowledgement or message keeps the push. */
  alerts: createEntityTable<AlertDto>({ stampOf: alertStamp }),
  /** Incidents and maintenance windows, dated by their last save (a push names only the id; the lists read again). */
  incidents: createEntityTable<IncidentDto>({ stampOf: (incident) => incident.updated_at }),
  maintenance: createEntityTable<MaintenanceDto>({ stampOf: (row) => row.updated_at }),
};

/** Forgets every cached row (tests start from an empty cache). */
export function clearLiveCache(): void {
  for (const table of Object.values(liveCache)) table.clear();
}
