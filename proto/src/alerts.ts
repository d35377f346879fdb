/**
 * Alerts: the episodes notifications are sent for (a monitor down, an agent offline, a metric over its threshold, a
 * monitor degraded or flapping), with their messages, reminders, escalation and acknowledgement.
 */

export const ALERT_STATES = ['open', 'acknowledged', 'resolved'] as const;
export type AlertStateName = (typeof ALERT_STATES)[number];

/** What an alert is about: the target's status, a degraded spell, a flapping spell or an agent metric. */
export const ALERT_METRICS = [
  'status',
  'degraded',
  'flapping',
  'cpu',
  'memory',
  'disk',
  // Issue 32's host thresholds: load per core, the hottest sensor, the busiest disk, the busiest interface.
  'load',
  'temperature',
  'diskIo',
  'bandwidth',
  // One episode per item (the container or unit is the alert's `item`).
  'containerDown',
  'containerUnhealthy',
  'serviceFailed',
] as const;
export type AlertMetric = (typeof ALERT_METRICS)[number];

export const ALERT_NOTE_MAX = 1000;

/** One escalation step: this many minutes after opening, still unacknowledged, also notify these channels. */
export interface EscalationStep {
  afterMinutes: number;
  channels: number[];
}
export const ESCALATION_LIMITS = {
  stepsMax: 5,
  afterMinutesMin: 1,
  afterMinutesMax: 10_080,
  reminderMinutesMin: 1,
  reminderMinutesMax: 10_080,
} as const;

/** One notification of an alert as the outbox holds it. */
export interface AlertMessageDto {
  id: number;
  channel_id: number | null;
  channel_name: string;
  event: string;
  status: 'pending' | 'sent' | 'failed';
  created_at: string;
  sent_at: string | null;
}

export interface AlertDto {
  id: number;
  target_kind: 'monitor' | 'agent';
  target_id: number;
  target_name: string;
  metric: AlertMetric;
  /** The container or systemd unit of a per-item metric (`containerDown`…); absent for the others. */
  item?: string;
  state: AlertStateName;
  opened_at: string;
  closed_at: string | null;
  acknowledged_at: string | null;
  acknowledged_by: { id: number; username: string } | null;
  ack_note: string | null;
  /** Escalation steps already taken (0: none). */
  escalation_step: number;
  reminders_sent: number;
  /** Newest first; every message the alert produced. */
  messages: AlertMessageDto[];
}

/** `GET /api/alerts?state=&kind=&targetId=&search=&page=&pageSize=` (state `all` by default: open first, then recent). */
export interface AlertsResponse {
  success: true;
  alerts: AlertDto[];
  total: number;
  page: number;
  pageSize: number;
  counts: { open: number; acknowledged: number };
}

/** `POST /api/alerts/{id}/ack`; 409 when it is already acknowledged or closed (the first acknowledgement is kept). */
export interface AlertAckRequest {
  note?: string;
}

export interface AlertResponse {
  success: true;
  message?: string;
  alert: AlertDto;
}

/** `POST /api/monitors/{id}/mute` and `POST /api/agents/{id}/mute`: no notifications until `until` (null unmutes). */
export interface MuteRequest {
  until: string | null;
}

/** Live, to `alerts`: an alert opened, changed (ack, reminder, escalation, message) or closed. */
export interface AlertChangedEvent {
  alert: AlertDto;
}
