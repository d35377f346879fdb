import type { CheckDto, MonitorDto, MonitorStatus, UserDto } from '@vigil/proto';

/** Every domain event: name → payload. Services raise them; listeners react. */
export interface EventMap {
  'user.created': { user: UserDto };
  'user.updated': { user: UserDto };
  'user.deleted': { user: UserDto };
  'monitor.created': { monitor: MonitorDto };
  'monitor.updated': { monitor: MonitorDto };
  'monitor.deleted': { monitor: MonitorDto };
  /** Every stored check. `monitor` carries the state after it (history and checks left empty). */
  'monitor.checked': { monitor: MonitorDto; check: CheckDto; uptime: number };
  /** Raised once per transition, decided atomically in the database. */
  'monitor.status_changed': { monitor: MonitorDto; previous: MonitorStatus; status: MonitorStatus; check: CheckDto };
}

export type EventName = keyof EventMap;
