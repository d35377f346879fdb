import type { UserDto } from './api';
import type { MessageCode } from './messages';
import type { AgentReportedEvent, AgentsChangedEvent, AgentStatusChangedEvent } from './agents';
import type { StatusChange, StatusItemEvent } from './status';
import type { MonitorCheckedEvent, MonitorsChangedEvent, MonitorStatusChangedEvent } from './monitors';

/** Rooms a socket may ask to join. Anonymous sockets may join only `status`. */
export const PUBLIC_ROOMS = ['status'] as const;
export const MEMBER_ROOMS = ['status', 'monitors', 'agents', 'wall', 'alerts', 'incidents', 'maintenance'] as const;
/** A wall screen opened with a display key may join only these. */
export const DISPLAY_ROOMS = ['status', 'wall'] as const;
/** A status page's own room is `status:<slug>`: anyone may join it, a password page's only with its cookie. */
export type Room = (typeof MEMBER_ROOMS)[number] | `monitor:${number}` | `agent:${number}` | `status:${string}`;

/** Joined automatically on connect by admins; never by request. */
export const ADMINS_ROOM = 'admins';

export interface UsersChangedEvent {
  action: 'created' | 'updated' | 'deleted';
  user: UserDto;
}

export interface SubscribeResult {
  ok: boolean;
  error?: string;
}

/** Pushes from the server to browsers. */
export interface ServerToClientEvents {
  'users.changed': (event: UsersChangedEvent) => void;
  'monitor.checked': (event: MonitorCheckedEvent) => void;
  'monitor.status_changed': (event: MonitorStatusChangedEvent) => void;
  'monitors.changed': (event: MonitorsChangedEvent) => void;
  /** A location of a monitor got a result (to `monitors` and `monitor:<id>`). */
  'monitor.location': (event: import('./probes').MonitorLocationEvent) => void;
  'agent.reported': (event: AgentReportedEvent) => void;
  'agent.status_changed': (event: AgentStatusChangedEvent) => void;
  'agents.changed': (event: AgentsChangedEvent) => void;
  /** A selected item of the public status page changed (to `status`). */
  'status.item': (event: StatusItemEvent) => void;
  /** The status page's configuration or its items' names changed: read `/api/status/data` again (to `status`). */
  'status.changed': () => void;
  /** A monitor or agent changed status (to `wall`). */
  'wall.change': (event: StatusChange) => void;
  /** Items were added, renamed or removed: read `/api/wall/data` again (to `wall`). */
  'wall.changed': () => void;
  /** A location of a monitor started or stopped failing: its wall counts (to `wall`). */
  'wall.locations': (event: import('./status').WallLocationsEvent) => void;
  /** A component of a status page changed (to `status:<slug>`). */
  'status.page_item': (event: import('./status-pages').PageItemEvent) => void;
  /** A page's configuration, incidents or maintenance changed: read its data again (to `status:<slug>`). */
  'status.page_changed': (event: import('./status-pages').PageChangedEvent) => void;
  /** An incident was created, updated or deleted (to `incidents`). */
  'incident.changed': (event: import('./incidents').IncidentChangedEvent) => void;
  /** A maintenance window was saved, deleted, started or ended (to `maintenance`). */
  'maintenance.changed': (event: import('./maintenance').MaintenanceChangedEvent) => void;
  /** An alert opened, changed or closed (to `alerts`). */
  'alert.changed': (event: import('./alerts').AlertChangedEvent) => void;
  /** Sent just before the server disconnects a socket whose token is invalid. */
  'auth.error': (event: { message: string; code: MessageCode }) => void;
}

/** Requests from browsers to the server. */
export interface ClientToServerEvents {
  subscribe: (room: Room, ack: (result: SubscribeResult) => void) => void;
  unsubscribe: (room: Room, ack: (result: SubscribeResult) => void) => void;
}

/** Handshake `auth` of a browser socket: the JWT, or nothing for an anonymous visitor. */
export interface BrowserHandshakeAuth {
  token?: string;
  /** A wall screen's display key (instead of a token). */
  displayKey?: string;
}
