import { Injectable } from '@nestjs/common';
import type { WebPushAudience } from '@vigil/proto';
import { DataSource } from 'typeorm';
import { execute, queryRow, queryRows } from '../database/rows';

/** A browser's subscription with what sending to it needs. */
export interface PushSubscriptionRow {
  id: number;
  endpoint: string;
  p256dh: string;
  auth: string;
}

/** A subscription as its owner lists it. */
export interface ListedSubscriptionRow {
  id: number;
  endpoint: string;
  user_agent: string | null;
  created_at: Date;
}

export interface NewSubscription {
  userId: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  userAgent: string | null;
}

/** The `web_push_subscriptions` table: one row per browser (endpoint), owned by the user who enabled it last. */
@Injectable()
export class WebPushRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Stores the subscription, or moves an existing endpoint to this user with its new keys, unless the user already has
   * `limit` other browsers: then nothing is written and null comes back. One statement, so two tabs subscribing at
   * once cannot both pass the count.
   */
  async upsert(subscription: NewSubscription, limit: number): Promise<number | null> {
    const row = await queryRow<{ id: number }>(
      this.dataSource,
      `INSERT INTO web_push_subscriptions (user_id, endpoint, p256dh, auth, user_agent)
       SELECT $1, $2, $3, $4, $5
       WHERE (SELECT count(*) FROM web_push_subscriptions WHERE user_id = $1 AND endpoint <> $2) < $6
       ON CONFLICT (endpoint) DO UPDATE
         SET user_id = EXCLUDED.user_id, p256dh = EXCLUDED.p256dh, auth = EXCLUDED.auth, user_agent = EXCLUDED.user_agent
       RETURNING id`,
      [subscription.userId, subscription.endpoint, subscription.p256dh, subscription.auth, subscription.userAgent, limit],
    );
    return row?.id ?? null;
  }

  listOwn(userId: number): Promise<ListedSubscriptionRow[]> {
    return queryRows<ListedSubscriptionRow>(
      this.dataSource,
      `SELECT id, endpoint, user_agent, created_at FROM web_push_subscriptions WHERE user_id = $1 ORDER BY id`,
      [userId],
    );
  }

  /** False when the user has no subscription with this endpoint (none at all, or another user's). */
  async deleteOwn(userId: number, endpoint: string): Promise<boolean> {
    return (
      (await execute(this.dataSource, `DELETE FROM web_push_subscriptions WHERE user_id = $1 AND endpoint = $2 RETURNING id`, [
        userId,
        endpoint,
      ])) > 0
    );
  }

  /** Every browser of every user, or of admins only. */
  forAudience(audience: WebPushAudience): Promise<PushSubscriptionRow[]> {
    const admins = audience === 'admins';
    return queryRows<PushSubscriptionRow>(
      this.dataSource,
      `SELECT s.id, s.endpoint, s.p256dh, s.auth FROM web_push_subscriptions s
       ${admins ? `JOIN users u ON u.id = s.user_id WHERE u.role = 'admin'` : ''}
       ORDER BY s.id`,
    );
  }

  /** A subscription its push service answered 404 or 410 for: the browser unsubscribed or the subscription expired. */
  async delete(id: number): Promise<void> {
    await execute(this.dataSource, `DELETE FROM web_push_subscriptions WHERE id = $1`, [id]);
  }
}
