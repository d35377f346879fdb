import {
  DEFAULT_PAGE_SLUG,
  type IncidentDto,
  type MaintenanceDto,
  type PublicIncident,
  type SubscriptionMaintenance,
  type SubscriptionNoticeType,
  type SubscriptionPageRef,
  type SubscriptionWebhookPayload,
} from '@vigil/proto';
import { renderMarkdown } from '../common/markdown';

/** The page as a notice names it; its address depends on the subscriber (see `pageUrl`). */
export interface NoticePage {
  slug: string;
  title: string;
}

type IncidentType = Extract<SubscriptionNoticeType, `incident.${string}`>;
type MaintenanceType = Extract<SubscriptionNoticeType, `maintenance.${string}`>;

/**
 * A notice as stored once per page: the webhook's payload without the subscriber's own links, and `text`, the plain
 * text of what it says (the update's or the description's Markdown as written) for the mail's text part.
 */
export type StoredNotice =
  | { type: IncidentType; page: NoticePage; incident: PublicIncident; text: string }
  | { type: MaintenanceType; page: NoticePage; maintenance: SubscriptionMaintenance; text: string };

/** A notice to store for one page, with the key that makes it once only (the page's id is added when stored). */
export interface NoticeDraft {
  key: string;
  notice: StoredNotice;
}

/** The public address of a page: `/status` for the default page, `/status/<slug>` for the others. */
export function pageUrl(baseUrl: string, slug: string): string {
  return slug === DEFAULT_PAGE_SLUG ? `${baseUrl}/status` : `${baseUrl}/status/${encodeURIComponent(slug)}`;
}

/**
 * What a change of an incident tells a page's subscribers: its newest update, once per update (an edit of the
 * title adds no update and sends nothing). Nothing for drafts, deletions or an incident without updates.
 */
export function incidentNotice(
  action: 'created' | 'updated' | 'deleted',
  incident: IncidentDto,
  page: NoticePage,
  components: string[],
): NoticeDraft | null {
  const newest = incident.updates[incident.updates.length - 1];
  if (action === 'deleted' || !incident.published || !newest) return null;
  const type: IncidentType =
    newest.status === 'resolved' ? 'incident.resolved' : incident.updates.length === 1 ? 'incident.created' : 'incident.updated';
  const publicIncident: PublicIncident = {
    id: incident.id,
    title: incident.title,
    impact: incident.impact,
    status: incident.status,
    created_at: incident.created_at,
    resolved_at: incident.resolved_at,
    components,
    updates: [{ status: newest.status, html: newest.html, created_at: newest.created_at }],
  };
  return {
    key: `incident:${incident.id}:update:${newest.id}`,
    notice: { type, page, incident: publicIncident, text: newest.message },
  };
}

/**
 * What a maintenance event tells a page's subscribers: a window created ahead (or already on), each start and each
 * end. Saves and deletions send nothing; a window switched off is not announced.
 */
export function maintenanceNotice(
  action: 'created' | 'updated' | 'deleted' | 'started' | 'ended',
  maintenance: MaintenanceDto,
  page: NoticePage,
  components: string[],
  now: Date,
): NoticeDraft | null {
  const current = maintenance.current;
  const window = (
    type: MaintenanceType,
    key: string,
    phase: SubscriptionMaintenance['phase'],
    start: string | null,
    end: string | null,
  ) => ({
    key: `maintenance:${maintenance.id}:${key}`,
    notice: {
      type,
      page,
      maintenance: {
        id: maintenance.id,
        title: maintenance.title,
        description_html: renderMarkdown(maintenance.description),
        phase,
        start,
        end,
        components,
      },
      text: maintenance.description,
    },
  });
  if (action === 'created') {
    if (!maintenance.enabled || !current) return null;
    if (maintenance.phase === 'scheduled') return window('maintenance.scheduled', 'scheduled', 'scheduled', current.start, current.end);
    // Created on: the same start an event `started` would announce, so only one of them is sent.
    if (maintenance.phase === 'active')
      return window('maintenance.started', `started:${current.start}`, 'active', current.start, current.end);
    return null;
  }
  if (action === 'started') {
    return window(
      'maintenance.started',
      `started:${current?.start ?? maintenance.updated_at}`,
      'active',
      current?.start ?? now.toISOString(),
      current?.end ?? null,
    );
  }
  if (action === 'ended') {
    // After an end, `current` is the next occurrence (a recurring window) or nothing; a manual window's switch moves updated_at.
    return window('maintenance.ended', `ended:${maintenance.updated_at}:${current?.start ?? ''}`, 'ended', null, now.toISOString());
  }
  return null;
}

/** The JSON a webhook subscriber receives for a notice: the stored one without its mail text, with the subscriber's links. */
export function noticePayload(notice: StoredNotice, page: SubscriptionPageRef, unsubscribeUrl: string): SubscriptionWebhookPayload {
  if ('incident' in notice) return { type: notice.type, page, incident: notice.incident, unsubscribe_url: unsubscribeUrl };
  return { type: notice.type, page, maintenance: notice.maintenance, unsubscribe_url: unsubscribeUrl };
}
