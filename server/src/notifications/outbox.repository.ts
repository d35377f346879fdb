import { Injectable } from '@nestjs/common';
import type { ChannelType } from '@vigil/proto';
import { DataSource } from 'typeorm';
import { execute, queryRows, type Sql } from '../database/rows';
import type { NotificationMessage } from './providers';

/** One notification to one channel, as the alert rules write it inside the event's transaction. */
export interface OutboxItem {
  dedup_key: string;
  channel_id: number;
  channel_name: string;
  channel_type: ChannelType;
  event: string;
  target_kind: 'monitor' | 'agent';
  target_id: number;
  target_name: string;
  message: NotificationMessage;
}

/** A claimed notification with its channel as it is now (null: the channel was deleted). */
export interface ClaimedDelivery {
  id: number;
  /** The row's idempotency key, the same on every attempt (X-Vigil-Delivery). */
  deliveryId: string;
  attempts: number;
  message: NotificationMessage;
  channelId: number | null;
  channel: { type: ChannelType; config: Record<string, unknown>; enabled: boolean } | null;
}

export interface AttemptRecord {
  ok: boolean;
  httpStatus: number | null;
  detail: string | null;
  durationMs: number;
}

/** What happens to a claimed notification after an attempt. */
export type Outcome = { status: 'sent' } | { status: 'retry'; delayMs: number } | { status: 'failed' };

@Injectable()
export class OutboxRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Inside the event's transaction; a deduplication key already written is skipped. Returns how many were new. */
  async enqueue(manager: Sql, items: OutboxItem[]): Promise<number> {
    if (!items.length) return 0;
    const rows = await queryRows<{ id: string }>(
      manager,
      `INSERT INTO notification_outbox (dedup_key, channel_id, channel_name, channel_type, event, target_kind, target_id, target_name, message)
       SELECT dedup_key, channel_id, channel_name, channel_type, event, target_kind, target_id, target_name, message
       FROM jsonb_to_recordset($1::jsonb) AS r(dedup_key varchar, channel_id int, channel_name varchar, channel_type varchar,
         event varchar, target_kind varchar, target_id int, target_name varchar, message jsonb)
       ON CONFLICT (dedup_key) DO NOTHING
       RETURNING id`,
      [JSON.stringify(items)],
    );
    return rows.length;
  }

  /**
   * Takes up to `limit` due notifications for this process: rows locked by another instance's claim are skipped, and
   * the lease (`locked_until`) lets another instance take over if this one dies mid-delivery. No channel gets more
   * than `perChannel` attempts in flight here, counting `busy` (channel id → attempts this process already has in
   * flight), so one slow or dead destination cannot take every slot from the others.
   */
  async claim(
    limit: number,
    leaseMs: number,
    perChannel = limit,
    busy: ReadonlyMap<number, number> = new Map(),
  ): Promise<ClaimedDelivery[]> {
    const claimed = await queryRows<{
      id: number;
      delivery_id: string;
      attempts: number;
      message: NotificationMessage;
      channel_id: number | null;
    }>(
      this.dataSource,
      // The oldest due rows of each channel, as many as it has free places; RETURNING follows no order, so the
      // oldest due are put first again: they are sent first.
      `WITH busy AS (SELECT * FROM unnest($4::int[], $5::int[]) AS b(channel_id, n)),
       candidates AS (
         SELECT o.id, o.next_attempt_at,
                row_number() OVER (PARTITION BY o.channel_id ORDER BY o.next_attempt_at, o.id) + coalesce(b.n, 0) AS place
         FROM notification_outbox o LEFT JOIN busy b ON b.channel_id = o.channel_id
         WHERE o.status = 'pending' AND o.next_attempt_at <= now() AND (o.locked_until IS NULL OR o.locked_until < now())
       ),
       claimed AS (
         UPDATE notification_outbox o SET locked_until = now() + make_interval(secs => $2::float8 / 1000), attempts = o.attempts + 1
         FROM (
           SELECT id FROM notification_outbox
           WHERE id IN (SELECT id FROM candidates WHERE place <= $3 ORDER BY next_attempt_at, id LIMIT $1)
             AND status = 'pending' AND (locked_until IS NULL OR locked_until < now())
           FOR UPDATE SKIP LOCKED
         ) due
         WHERE o.id = due.id
         RETURNING o.id, o.delivery_id, o.attempts, o.message, o.channel_id, o.next_attempt_at
       )
       SELECT id::int, delivery_id, attempts, message, channel_id FROM claimed ORDER BY next_attempt_at, id`,
      [limit, leaseMs, perChannel, [...busy.keys()], [...busy.values()]],
    );
    const channelIds = [...new Set(claimed.map((r) => r.channel_id).filter((id): id is number => id !== null))];
    const channels = channelIds.length
      ? await queryRows<{ id: number; type: ChannelType; config: Record<string, unknown>; enabled: boolean }>(
          this.dataSource,
          `SELECT id, type, config, enabled FROM notification_channels WHERE id = ANY($1::int[])`,
          [channelIds],
        )
      : [];
    const byId = new Map(channels.map((c) => [c.id, c]));
    return claimed.map((row) => {
      const channel = row.channel_id === null ? undefined : byId.get(row.channel_id);
      return {
        id: row.id,
        deliveryId: row.delivery_id,
        attempts: row.attempts,
        message: row.message,
        channelId: row.channel_id,
        channel: channel ? { type: channel.type, config: channel.config, enabled: channel.enabled } : null,
      };
    });
  }

  /** Records the attempt and moves the notification on, in one statement. */
  async finish(id: number, attempt: number, record: AttemptRecord, outcome: Outcome): Promise<void> {
    await execute(
      this.dataSource,
      `WITH moved AS (
         UPDATE notification_outbox SET
           status = CASE WHEN $3::varchar = 'retry' THEN 'pending' ELSE $3::varchar END,
           sent_at = CASE WHEN $3::varchar = 'sent' THEN now() ELSE sent_at END,
           next_attempt_at = CASE WHEN $3::varchar = 'retry' THEN now() + make_interval(secs => $4::float8 / 1000) ELSE next_attempt_at END,
           last_error = CASE WHEN $3::varchar = 'sent' THEN NULL ELSE $5::text END,
           locked_until = NULL
         WHERE id = $1 RETURNING id
       )
       INSERT INTO notification_attempts (outbox_id, attempt, ok, http_status, detail, duration_ms)
       SELECT id, $2, $6, $7, $5::text, $8 FROM moved`,
      [
        id,
        attempt,
        outcome.status,
        outcome.status === 'retry' ? outcome.delayMs : 0,
        record.detail,
        record.ok,
        record.httpStatus,
        record.durationMs,
      ],
    );
  }

  /** A channel test, sent at once rather than queued, kept in the history like any delivery. */
  async recordTest(
    channel: { id: number | null; name: string; type: ChannelType },
    message: NotificationMessage,
    record: AttemptRecord,
    deliveryId: string,
  ): Promise<void> {
    await execute(
      this.dataSource,
      `WITH test AS (
         INSERT INTO notification_outbox (dedup_key, channel_id, channel_name, channel_type, event, target_kind, target_id,
           target_name, message, status, attempts, last_error, sent_at, delivery_id)
         VALUES ('test:' || $11::text, $1, $2, $3, 'test', 'test', NULL, $2, $4, $5::varchar, 1, $6, CASE WHEN $5::varchar = 'sent' THEN now() END, $11::uuid)
         RETURNING id
       )
       INSERT INTO notification_attempts (outbox_id, attempt, ok, http_status, detail, duration_ms)
       SELECT id, 1, $7, $8, $9, $10 FROM test`,
      [
        channel.id,
        channel.name,
        channel.type,
        JSON.stringify(message),
        record.ok ? 'sent' : 'failed',
        record.ok ? null : record.detail,
        record.ok,
        record.httpStatus,
        record.detail,
        record.durationMs,
        deliveryId,
      ],
    );
  }
}
