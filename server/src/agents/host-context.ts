import {
  HOST_CONTEXT_LIMITS,
  type AgentStatus,
  type ContainerHealth,
  type ContainerState,
  type HostChange,
  type HostContextDto,
  type ServiceState,
} from '@vigil/proto';

/** One agent as `HostContextRepository` summarises it in SQL (json timestamps arrive as text). */
export interface HostContextRow {
  id: number;
  name: string;
  hostname: string;
  status: AgentStatus;
  offline_since: Date | null;
  reported_at: Date | null;
  cpu: number | null;
  memory: number | null;
  swap: number | null;
  disk_mount: string | null;
  disk_percent: number | null;
  load1: number | null;
  load5: number | null;
  load15: number | null;
  /** Of its last report: containers not running or unhealthy, units in state failed (null: none reported). */
  containers: Array<{ name: string; state: ContainerState; health: ContainerHealth }> | null;
  services: Array<{ name: string; state: ServiceState }> | null;
  /** Its host alerts opened within the window or still open, newest first (`item`: '' for host-wide ones). */
  alerts: Array<{ metric: string; item: string; opened_at: string; closed_at: string | null }>;
}

const iso = (at: Date | string | null): string | null => (at === null ? null : new Date(at).toISOString());
const oneDecimal = (value: number | null): number | null => (value === null ? null : Math.round(value * 10) / 10);
const twoDecimals = (value: number) => Math.round(value * 100) / 100;

/**
 * The host's state as a monitor's alert and detail page tell it. A container or unit named by one of the alerts takes
 * that alert's opening as its `since` and the alert is not told again; the ones in trouble come first, as the likely
 * cause, then the other alerts, newest first.
 */
export function hostContextOf(row: HostContextRow): HostContextDto {
  const alerts = row.alerts.map((alert) => ({ ...alert, item: alert.item || null }));
  const told = new Set<number>();
  const sinceOf = (name: string): string | null => {
    const index = alerts.findIndex((alert, i) => alert.item === name && !told.has(i));
    if (index < 0) return null;
    told.add(index);
    return iso(alerts[index].opened_at);
  };
  const byNewest = (a: { since: string | null }, b: { since: string | null }) => (b.since ?? '').localeCompare(a.since ?? '');
  const containers = (row.containers ?? [])
    .map((c) => ({ kind: 'container' as const, name: c.name, state: c.state, health: c.health, since: sinceOf(c.name) }))
    .sort(byNewest);
  const services = (row.services ?? [])
    .map((s) => ({ kind: 'service' as const, name: s.name, state: s.state, since: sinceOf(s.name) }))
    .sort(byNewest);
  const others = alerts
    .filter((_, i) => !told.has(i))
    .map((alert): HostChange => ({
      kind: 'alert',
      metric: alert.metric,
      item: alert.item,
      opened_at: iso(alert.opened_at)!,
      closed_at: iso(alert.closed_at),
    }));
  const changes: HostChange[] = [...containers, ...services, ...others];
  const { load1, load5, load15 } = row;
  return {
    agent: { id: row.id, name: row.name, hostname: row.hostname, status: row.status },
    offline_since: row.status === 'inactive' ? iso(row.offline_since) : null,
    reported_at: iso(row.reported_at),
    figures: {
      cpu: oneDecimal(row.cpu),
      memory: oneDecimal(row.memory),
      swap: oneDecimal(row.swap),
      disk: row.disk_mount !== null && row.disk_percent !== null ? { mount: row.disk_mount, percent: oneDecimal(row.disk_percent)! } : null,
      load: load1 !== null && load5 !== null && load15 !== null ? [twoDecimals(load1), twoDecimals(load5), twoDecimals(load15)] : null,
    },
    changes: changes.slice(0, HOST_CONTEXT_LIMITS.changesMax),
    more_changes: Math.max(0, changes.length - HOST_CONTEXT_LIMITS.changesMax),
  };
}
