import { Injectable } from '@nestjs/common';
import type { ChannelLanguage, SubscriberKind } from '@vigil/proto';
import { DataSource } from 'typeorm';
import { execute, queryRows } from '../database/rows';
import type { NoticePage, StoredNotice } from './subscription-notices';

/** A page an event touches, with the names of its components the event is about (at most COMPONENT_NAMES). */
export interface NoticeTarget extends NoticePage {
  id: number;
  components: string[];
}

/** What an event touches: monitors, agents and group monitors (each group with its members, transitively); `all`: the whole page. */
export interface NoticeScope {
  all: boolean;
  monitors: number[];
  agents: number[];
  groups: number[];
}

/** One claimed delivery with what sending it needs: the subscriber, its page, the page's mail channel, the notice. */
export interface ClaimedSubscriptionDelivery {
  id: number;
  deliveryId: string;
  attempts: number;
  subscriberId: number;
  kind: SubscriberKind;
  address: string;
  baseUrl: string;
  confirmed: boolean;
  page: NoticePage;
  channel: { type: string; config: Record<string, unknown>; enabled: boolean; language: ChannelLanguage } | null;
  /** Null: the subscriber's confirmation request. */
  notice: StoredNotice | null;
}

export type DeliveryOutcome =
  { status: 'sent' } | { status: 'retry'; delayMs: number; error: string } | { status: 'failed'; error: string };

/** A notice names at most this many components; the page shows the rest. */
const COMPONENT_NAMES = 100;

/**
 * The durable outbox of subscriptions: one notice per page and event, one delivery per confirmed subscriber, claimed
 * with FOR UPDATE SKIP LOCKED and a lease (as the notification outbox), so each goes out once across instances and
 * a delivery whose instance died is taken over when its lease runs out.
 */
@Injectable()
export class SubscriptionDeliveriesRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * The pages among `pageIds` that show the event (their slug is in `slugs`), each with the names of its components in
   * `scope`, in the page's order. One statement whatever the number of pages.
   */
  async targets(pageIds: number[], slugs: string[], scope: NoticeScope): Promise<NoticeTarget[]> {
    if (!pageIds.length || !slugs.length) return [];
    return queryRows<NoticeTarget>(
      this.dataSource,
      `WITH RECURSIVE covered(id) AS (
         SELECT unnest($4::int[])
         UNION SELECT m.id FROM monitors m JOIN covered c ON m.parent_id = c.id
       )
       SELECT p.id, p.slug, p.title,
              CASE WHEN $6::boolean THEN '{}'::text[] ELSE coalesce((
                SELECT (array_agg(coalesce(m.name, a.name) ORDER BY pc.group_position, pc.position))[1:$7]
                FROM status_page_components pc
                LEFT JOIN monitors m ON m.id = pc.monitor_id
                LEFT JOIN agents a ON a.id = pc.agent_id
                WHERE pc.page_id = p.id
                  AND (pc.monitor_id = ANY($3::int[]) OR pc.monitor_id IN (SELECT id FROM covered) OR pc.agent_id = ANY($5::int[]))
              ), '{}'::text[]) END AS components
       FROM status_pages p
       WHERE p.id = ANY($1::int[]) AND p.slug = ANY($2::text[])
       ORDER BY p.id`,
      [pageIds, slugs, scope.monitors, scope.groups, scope.agents, scope.all, COMPONENT_NAMES],
    );
  }

  /**
   * Stores the notices (a key already stored is skipped: the same update is never announced twice) and one delivery
   * for every confirmed subscriber of each page, in one statement. Pages nobody is subscribed to store nothing.
   * Returns how many deliveries were queued.
   */
  async add(notices: Array<{ pageId: number; key: string; notice: StoredNotice }>): Promise<number> {
    if (!notices.length) return 0;
    const rows = notices.map(({ pageId, key, notice }) => ({ page_id: pageId, dedup_key: `${key}:page:${pageId}`, payload: notice }));
    const queued = await queryRows<{ id: string }>(
      this.dataSource,
      `WITH notices AS (
         INSERT INTO status_page_notices (page_id, dedup_key, payload)
         SELECT r.page_id, r.dedup_key, r.payload FROM jsonb_to_recordset($1::jsonb) AS r(page_id int, dedup_key varchar, payload jsonb)
         WHERE EXISTS (SELECT 1 FROM status_page_subscribers s WHERE s.page_id = r.page_id AND s.confirmed_at IS NOT NULL)
         ON CONFLICT (dedup_key) DO NOTHING
         RETURNING id, page_id
       )
       INSERT INTO status_page_deliveries (subscriber_id, notice_id)
       SELECT s.id, n.id FROM notices n JOIN status_page_subscribers s ON s.page_id = n.page_id AND s.confirmed_at IS NOT NULL
       RETURNING id`,
      [JSON.stringify(rows)],
    );
    return queued.length;
  }

  /** Takes up to `limit` due deliveries for this process; rows another instance holds are skipped. */
  async claim(limit: number, leaseMs: number): Promise<ClaimedSubscriptionDelivery[]> {
    const rows = await queryRows<{
      id: string;
      delivery_id: string;
      attempts: number;
      subscriber_id: number;
      kind: SubscriberKind;
      address: string;
      base_url: string;
      confirmed: boolean;
      slug: string;
      title: string;
      channel_type: string | null;
      channel_config: Record<string, unknown> | null;
      channel_enabled: boolean | null;
      channel_language: ChannelLanguage | null;
      payload: StoredNotice | null;
    }>(
      this.dataSource,
      `WITH due AS (
         SELECT id FROM status_page_deliveries
         WHERE status = 'pending' AND next_attempt_at <= now() AND (locked_until IS NULL OR locked_until < now())
         ORDER BY next_attempt_at, id LIMIT $1
         FOR UPDATE SKIP LOCKED
       ),
       claimed AS (
         UPDATE status_page_deliveries d SET locked_until = now() + make_interval(secs => $2::float8 / 1000), attempts = d.attempts + 1
         FROM due WHERE d.id = due.id
         RETURNING d.id, d.delivery_id, d.attempts, d.subscriber_id, d.notice_id, d.next_attempt_at
       )
       SELECT c.id, c.delivery_id, c.attempts, c.subscriber_id, s.kind, s.address, s.base_url, s.confirmed_at IS NOT NULL AS confirmed,
              p.slug, p.title, ch.type AS channel_type, ch.config AS channel_config, ch.enabled AS channel_enabled,
              ch.language AS channel_language, n.payload
       FROM claimed c
       JOIN status_page_subscribers s ON s.id = c.subscriber_id
       JOIN status_pages p ON p.id = s.page_id
       LEFT JOIN notification_channels ch ON ch.id = p.subscribe_email_channel_id
       LEFT JOIN status_page_notices n ON n.id = c.notice_id
       ORDER BY c.next_attempt_at, c.id`,
      [limit, leaseMs],
    );
    return rows.map((row) => ({
      id: Number(row.id),
      deliveryId: row.delivery_id,
      attempts: row.attempts,
      subscriberId: row.subscriber_id,
      kind: row.kind,
      address: row.address,
      baseUrl: row.base_url,
      confirmed: row.confirmed,
      page: { slug: row.slug, title: row.title },
      channel:
        row.channel_type === null
          ? null
          : {
              type: row.channel_type,
              config: row.channel_config ?? {},
              enabled: row.channel_enabled === true,
              language: row.channel_language ?? 'en-US',
            },
      notice: row.payload,
    }));
  }

  /** Moves a claimed delivery on after its attempt; only the holder of this attempt's lease may. */
  async finish(id: number, attempt: number, outcome: DeliveryOutcome): Promise<void> {
    await execute(
      this.dataSource,
      `UPDATE status_page_deliveries SET
         status = CASE WHEN $3::varchar = 'retry' THEN 'pending' ELSE $3::varchar END,
         sent_at = CASE WHEN $3::varchar = 'sent' THEN now() ELSE sent_at END,
         next_attempt_at = CASE WHEN $3::varchar = 'retry' THEN now() + make_interval(secs => $4::float8 / 1000) ELSE next_attempt_at END,
         last_error = $5, locked_until = NULL
       WHERE id = $1 AND attempts = $2`,
      [
        id,
        attempt,
        outcome.status,
        outcome.status === 'retry' ? outcome.delayMs : 0,
        outcome.status === 'sent' ? null : outcome.error.slice(0, 300),
      ],
    );
  }

  /** Forgets notices (and their deliveries) older than `days`, and finished confirmation requests as old. */
  async prune(days: number): Promise<void> {
    await execute(this.dataSource, `DELETE FROM status_page_notices WHERE created_at < now() - make_interval(days => $1)`, [days]);
    await execute(
      this.dataSource,
      `DELETE FROM status_page_deliveries WHERE status <> 'pending' AND created_at < now() - make_interval(days => $1)`,
      [days],
    );
  }
}
