/** What an audit entry is about. Maintenance windows, incidents and several status pages join when they exist. */
export const AUDIT_TARGET_TYPES = [
  'monitor',
  'agent',
  'channel',
  'notification_settings',
  'template',
  'status_page',
  'display_key',
  'user',
  'settings',
  'api_key',
  'alert',
  'maintenance',
  'incident',
  'subscriber',
] as const;
export type AuditTargetType = (typeof AUDIT_TARGET_TYPES)[number];

/** Every action the audit log records, `<target>.<verb>`; the Audit page names each in both languages. */
export const AUDIT_ACTIONS = [
  'monitor.created',
  'monitor.updated',
  'monitor.paused',
  'monitor.resumed',
  'monitor.deleted',
  'monitor.muted',
  'agent.created',
  'agent.updated',
  'agent.deleted',
  'agent.token_created',
  'agent.muted',
  'alert.acknowledged',
  'channel.created',
  'channel.updated',
  'channel.deleted',
  'notification_settings.saved',
  'template.created',
  'template.updated',
  'template.deleted',
  'status_page.created',
  'status_page.saved',
  'status_page.deleted',
  'display_key.created',
  'display_key.revoked',
  'user.created',
  'user.registered',
  'user.updated',
  'user.role_changed',
  'user.password_changed',
  'user.deleted',
  'settings.updated',
  'auth.login_succeeded',
  'auth.login_failed',
  'api_key.created',
  'api_key.revoked',
  'two_factor.enabled',
  'two_factor.disabled',
  'maintenance.created',
  'maintenance.updated',
  'maintenance.ended',
  'maintenance.deleted',
  'incident.created',
  'incident.updated',
  'incident.update_posted',
  'incident.deleted',
  'subscriber.removed',
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/**
 * One changed field: its value before and after (absent on creation and deletion respectively). A secret (a channel's
 * token, a monitor's body, a password) is recorded as `secret: true`, never with its values; fields that may hold
 * credentials (URLs, headers, connection strings) are recorded masked.
 */
export interface AuditChange {
  before?: unknown;
  after?: unknown;
  secret?: true;
}
export type AuditChanges = Record<string, AuditChange>;

export interface AuditEntryDto {
  id: number;
  at: string;
  /** Null for what nobody signed in did (a failed sign-in, an agent enrolling). */
  actor: { userId: number | null; username: string | null; apiKeyId: number | null } | null;
  ip: string | null;
  action: AuditAction;
  target: { type: AuditTargetType; id: string | null; name: string | null } | null;
  changes: AuditChanges | null;
}

/** Counts stop here: beyond it a filter's total is shown as "more than". */
export const AUDIT_COUNT_LIMIT = 10_000;

/** `GET /api/audit?page=&pageSize=&actor=&target_type=&target_id=&action=&from=&to=`, newest first. */
export interface AuditResponse {
  success: true;
  entries: AuditEntryDto[];
  /** Exact up to AUDIT_COUNT_LIMIT; `totalCapped` says when there are more. */
  total: number;
  totalCapped: boolean;
  page: number;
  pageSize: number;
}
