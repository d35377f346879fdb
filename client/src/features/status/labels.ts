import type { TFunction } from 'i18next';
import { listStatus, STATUS_COLORS as AGENT_COLORS } from '../agents/format';
import type { MonitorStatus } from '@vigil/proto';
import { knownStatus, STATUS_COLORS as MONITOR_COLORS } from '../monitors/format';

export type ItemKind = 'monitor' | 'agent';

/** A monitor's status as shown on public screens: one of the server's statuses, or pending for anything else. */
export function publicMonitorStatus(status: string): MonitorStatus {
  return knownStatus(status);
}

/** The word for an item's status in the user's language: Up/Down/Degraded/Unreachable…, Online/Offline/Connecting. */
export function statusLabel(t: TFunction, kind: ItemKind, status: string): string {
  return kind === 'monitor' ? t(`monitor.status.${publicMonitorStatus(status)}`) : t(`agent.status.${listStatus(status)}`);
}

/** The Mantine colour of an item's status (STATUS_COLORS of monitors and agents). */
export function statusColor(kind: ItemKind, status: string): string {
  return kind === 'monitor' ? MONITOR_COLORS[publicMonitorStatus(status)] : AGENT_COLORS[listStatus(status)];
}
