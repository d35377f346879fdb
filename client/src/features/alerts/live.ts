import type { AlertDto } from '@vigil/proto';
import type { AlertsQuery } from './api';

function time(iso: string | null | undefined): number {
  const parsed = iso ? Date.parse(iso) : Number.NaN;
  return Number.isNaN(parsed) ? Number.NEGATIVE_INFINITY : parsed;
}

/**
 * When an alert last changed, as far as its fields tell: opened, acknowledged, closed or its newest message (reminders
 * and escalation add messages). A read older than a pushed change does not roll the change back.
 */
export function alertStamp(alert: AlertDto): string | null {
  const newest = Math.max(
    time(alert.opened_at),
    time(alert.acknowledged_at),
    time(alert.closed_at),
    ...alert.messages.map((message) => Math.max(time(message.created_at), time(message.sent_at))),
  );
  return Number.isFinite(newest) ? new Date(newest).toISOString() : null;
}

/** Still under way (open or acknowledged). */
export function isUnresolved(alert: Pick<AlertDto, 'state'>): boolean {
  return alert.state !== 'resolved';
}

/** Whether the alert belongs in a list read with `query` (its search is the server's to judge, so it is not checked). */
export function matchesQuery(alert: AlertDto, query: Pick<AlertsQuery, 'state' | 'kind' | 'targetId'>): boolean {
  if (query.state !== 'all' && alert.state !== query.state) return false;
  if (query.kind !== 'all' && alert.target_kind !== query.kind) return false;
  return query.targetId === undefined || alert.target_id === query.targetId;
}

/** Seconds the alert lasted, or has lasted so far at `now`. */
export function alertDurationSeconds(alert: Pick<AlertDto, 'opened_at' | 'closed_at'>, now: number): number {
  const start = time(alert.opened_at);
  const end = alert.closed_at ? time(alert.closed_at) : now;
  return Number.isFinite(start) && Number.isFinite(end) ? Math.max(0, (end - start) / 1000) : 0;
}

/** The mute menu's presets, in hours. */
export const MUTE_PRESETS_HOURS = [1, 8, 24] as const;

export function muteUntil(hours: number, now: number): string {
  return new Date(now + hours * 3_600_000).toISOString();
}

/** A muted_until still ahead of `now`: the target is muted. A past one means nothing any more. */
export function activeMute(mutedUntil: string | null | undefined, now: number): string | null {
  return mutedUntil && time(mutedUntil) > now ? mutedUntil : null;
}

/** A `datetime-local` input's value (local time) as an ISO time; null when empty, invalid or not in the future. */
export function futureIsoOf(local: string, now: number): string | null {
  const parsed = local ? new Date(local).getTime() : Number.NaN;
  return Number.isNaN(parsed) || parsed <= now ? null : new Date(parsed).toISOString();
}
