import { Injectable } from '@nestjs/common';
import { SUBSCRIPTION_LIMITS, type SubscriberKind } from '@vigil/proto';
import { DataSource } from 'typeorm';
import { execute, queryRow, queryRows, type Sql } from '../database/rows';

/** A page as subscriptions need it: which kinds it offers and whether it has a password. */
export interface SubscribablePage {
  id: number;
  slug: string;
  title: string;
  passwordHash: string | null;
  /** The page's mail channel when it is an SMTP channel; null: no email subscriptions. */
  emailChannelId: number | null;
  webhooks: boolean;
}

export interface SubscriberRow {
  id: number;
  kind: SubscriberKind;
  address: string;
  confirmed_at: Date | null;
  created_at: Date;
}

/** A new or renewed request: what to store, and the unsubscribe token's hash for the row's id. */
export interface SubscriptionRequest {
  pageId: number;
  kind: SubscriberKind;
  address: string;
  baseUrl: string;
  unsubscribeHash: (id: number) => string;
}

/** `%`, `_` and `\` match themselves in a search. */
const likePattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Subscribers of status pages. The addresses are personal data: only the admins' list returns them. */
@Injectable()
export class SubscriptionsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async page(slug: string): Promise<SubscribablePage | null> {
    return queryRow<SubscribablePage>(
      this.dataSource,
      `SELECT p.id, p.slug, p.title, p.password_hash AS "passwordHash", c.id AS "emailChannelId", p.subscribe_webhooks AS webhooks
       FROM status_pages p LEFT JOIN notification_channels c ON c.id = p.subscribe_email_channel_id AND c.type = 'smtp'
       WHERE p.slug = $1`,
      [slug],
    );
  }

  /**
   * Stores a subscription request and queues its confirmation, in one transaction: a new address, or an unconfirmed
   * one whose last request is older than the resend interval. Anything else (confirmed, or asked again too soon)
   * changes nothing. Returns whether a confirmation was queued.
   */
  async request(input: SubscriptionRequest): Promise<boolean> {
    return this.dataSource.transaction(async (db) => {
      const [{ id }] = await queryRows<{ id: number }>(
        db,
        `SELECT nextval(pg_get_serial_sequence('status_page_subscribers', 'id'))::int AS id`,
      );
      const stored = await queryRow<{ id: number }>(
        db,
        `INSERT INTO status_page_subscribers AS s (id, page_id, kind, address, base_url, unsubscribe_token_hash)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (page_id, kind, address) DO UPDATE SET confirm_requested_at = now(), base_url = EXCLUDED.base_url
           WHERE s.confirmed_at IS NULL AND s.confirm_requested_at <= now() - make_interval(mins => $7)
         RETURNING s.id`,
        [id, input.pageId, input.kind, input.address, input.baseUrl, input.unsubscribeHash(id), SUBSCRIPTION_LIMITS.resendMinutes],
      );
      if (!stored) return false;
      // A confirmation still being retried is replaced by the new one.
      await execute(db, `DELETE FROM status_page_deliveries WHERE subscriber_id = $1 AND notice_id IS NULL AND status = 'pending'`, [
        stored.id,
      ]);
      await execute(db, `INSERT INTO status_page_deliveries (subscriber_id) VALUES ($1)`, [stored.id]);
      return true;
    });
  }

  /** Records the hash of the token a confirmation request is about to carry; false once confirmed (nothing to send). */
  async setConfirmToken(subscriberId: number, hash: string): Promise<boolean> {
    const changed = await execute(
      this.dataSource,
      `UPDATE status_page_subscribers SET confirm_token_hash = $2 WHERE id = $1 AND confirmed_at IS NULL`,
      [subscriberId, hash],
    );
    return changed > 0;
  }

  /** Confirms the subscription the token was sent for (again: no change); its page's slug, or null for no such request. */
  async confirm(confirmHash: string): Promise<string | null> {
    const row = await queryRow<{ slug: string }>(
      this.dataSource,
      `UPDATE status_page_subscribers s SET confirmed_at = coalesce(s.confirmed_at, now())
       FROM status_pages p
       WHERE s.confirm_token_hash = $1 AND p.id = s.page_id
         AND (s.confirmed_at IS NOT NULL OR s.confirm_requested_at > now() - make_interval(days => $2))
       RETURNING p.slug`,
      [confirmHash, SUBSCRIPTION_LIMITS.unconfirmedDays],
    );
    return row?.slug ?? null;
  }

  /** Removes the subscription of an unsubscribe token; its page's slug, or null when there is none (any more). */
  async unsubscribe(unsubscribeHash: string): Promise<string | null> {
    const row = await queryRow<{ slug: string }>(
      this.dataSource,
      `DELETE FROM status_page_subscribers s USING status_pages p WHERE s.unsubscribe_token_hash = $1 AND p.id = s.page_id RETURNING p.slug`,
      [unsubscribeHash],
    );
    return row?.slug ?? null;
  }

  async list(pageId: number, search: string | undefined, offset: number, limit: number): Promise<{ rows: SubscriberRow[]; total: number }> {
    const params: unknown[] = [pageId];
    let condition = 'page_id = $1';
    if (search) {
      params.push(likePattern(search));
      condition += ` AND address ILIKE $2`;
    }
    const [{ total }] = await queryRows<{ total: number }>(
      this.dataSource,
      `SELECT count(*)::int AS total FROM status_page_subscribers WHERE ${condition}`,
      params,
    );
    const rows = await queryRows<SubscriberRow>(
      this.dataSource,
      `SELECT id, kind, address, confirmed_at, created_at FROM status_page_subscribers WHERE ${condition}
       ORDER BY created_at DESC, id DESC OFFSET $${params.length + 1} LIMIT $${params.length + 2}`,
      [...params, offset, limit],
    );
    return { rows, total };
  }

  /** Removes one subscriber of the page; its kind, or null when the page has no such subscriber. */
  async remove(db: Sql, pageId: number, id: number): Promise<SubscriberKind | null> {
    const row = await queryRow<{ kind: SubscriberKind }>(
      db,
      `DELETE FROM status_page_subscribers WHERE page_id = $1 AND id = $2 RETURNING kind`,
      [pageId, id],
    );
    return row?.kind ?? null;
  }

  /** Forgets requests never confirmed within the allowed days (their links stop working with them). */
  pruneUnconfirmed(): Promise<number> {
    return execute(
      this.dataSource,
      `DELETE FROM status_page_subscribers WHERE confirmed_at IS NULL AND confirm_requested_at < now() - make_interval(days => $1)`,
      [SUBSCRIPTION_LIMITS.unconfirmedDays],
    );
  }
}
