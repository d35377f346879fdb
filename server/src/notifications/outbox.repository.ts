import { Injectable } from '@nestjs/common';
import type { ChannelLanguage, ChannelType } from '@vigil/proto';
import { createHash } from 'node:crypto';
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
  target_kind: 'monitor' | 'agent' | 'maintenance';
  target_id: number;
  target_name: string;
  /** The alert episode (`alerts` row) it belongs to; null for certificate notices. */
  alert_id?: number | null;
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
  channel: { type: ChannelType; config: Record<string, unknown>; enabled: boolean; language: ChannelLanguage } | null;
  /** A storm's rows sent as one message (see `claimGroups`): every row, this one first; absent for a lone row. */
  group?: Array<{ id: number; attempts: number; message: NotificationMessage; deliveryId: string }>;
}

export interface AttemptRecord {
  ok: boolean;
  httpStatus: number | null;
  detail: string | null;
  durationMs: number;
}

/** What happens to a claimed notification after an attempt. */
export type Outcome = { status: 'sent' } | { status: 'retry'; delayMs: number } | { status: 'failed' };

/** Channel types whose messages are incidents keyed by episode (one per alert): never combined. */
export const UNGROUPED_TYPES = ['pagerduty', 'opsgenie'];
/** A channel (alias `c`) that groups its messages. */
const GROUPED = `c.group_wait_seconds > 0 AND c.type NOT IN (${UNGROUPED_TYPES.map((t) => `'${t}'`).join(', ')})`;
/** Rows one grouped message carries at most; more wait for the next. */
const GROUP_MAX = 1000;

/** A UUID-shaped key derived from the rows' own keys. */
function groupKey(keys: string[]): string {
  const hex = createHash('sha256')
    .update([...keys].sort().join(','))
    .digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

@Injectable()
export class OutboxRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Inside the event's transaction; a deduplication key already written is skipped. Returns how many were new. */
  async enqueue(manager: Sql, items: OutboxItem[]): Promise<number> {
    if (!items.length) return 0;
    const rows = await queryRows<{ id: string }>(
      manager,
      `INSERT INTO notification_outbox (dedup_key, channel_id, channel_name, channel_type, event, target_kind, target_id, target_name,
         message, alert_id)
       SELECT dedup_key, channel_id, channel_name, channel_type, event, target_kind, target_id, target_name, message, alert_id
       FROM jsonb_to_recordset($1::jsonb) AS r(dedup_key varchar, channel_id int, channel_name varchar, channel_type varchar,
         event varchar, target_kind varchar, target_id int, target_name varchar, message jsonb, alert_id int)
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
           AND NOT EXISTS (SELECT 1 FROM notification_channels c WHERE c.id = o.channel_id AND ${GROUPED})
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
    const byId = await this.channelsOf(
      this.dataSource,
      claimed.map((r) => r.channel_id),
    );
    return claimed.map((row) => {
      const channel = row.channel_id === null ? undefined : byId.get(row.channel_id);
      return {
        id: row.id,
        deliveryId: row.delivery_id,
        attempts: row.attempts,
        message: row.message,
        channelId: row.channel_id,
        channel: channel ?? null,
      };
    });
  }

  private async channelsOf(db: Sql, ids: Array<number | null>): Promise<Map<number, NonNullable<ClaimedDelivery['channel']>>> {
    const channelIds = [...new Set(ids.filter((id): id is number => id !== null))];
    const channels = channelIds.length
      ? await queryRows<{ id: number; type: ChannelType; config: Record<string, unknown>; enabled: boolean; language: ChannelLanguage }>(
          db,
          `SELECT id, type, config, enabled, language FROM notification_channels WHERE id = ANY($1::int[])`,
          [channelIds],
        )
      : [];
    return new Map(channels.map((c) => [c.id, { type: c.type, config: c.config, enabled: c.enabled, language: c.language }]));
  }

  /**
   * Storm grouping: takes the channels (grouping on, none of `skip`) whose oldest due row has waited the channel's
   * `group_wait_seconds`, and, after a message that combined several rows, whose `group_interval_seconds` has passed
   * since (`second` ms each: tests shorten it). The channel row is locked (SKIP LOCKED) for the claim, so another
   * instance never splits the same rows into a second message; every due row of the channel (up to GROUP_MAX) is
   * leased together and delivered as one.
   */
  async claimGroups(leaseMs: number, secondMs: number, skip: number[], limit: number): Promise<ClaimedDelivery[]> {
    return this.dataSource.transaction(async (db) => {
      const ready = await queryRows<{ id: number }>(
        db,
        `SELECT c.id FROM notification_channels c
         WHERE ${GROUPED} AND c.id <> ALL($2::int[])
           AND (c.group_sent_at IS NULL OR c.group_sent_at + make_interval(secs => c.group_interval_seconds * $1::float8 / 1000) <= now())
           AND (SELECT min(o.created_at) FROM notification_outbox o
                WHERE o.channel_id = c.id AND o.status = 'pending' AND o.next_attempt_at <= now()
                  AND (o.locked_until IS NULL OR o.locked_until < now()))
               + make_interval(secs => c.group_wait_seconds * $1::float8 / 1000) <= now()
         ORDER BY c.id LIMIT $3 FOR UPDATE OF c SKIP LOCKED`,
        [secondMs, skip, limit],
      );
      if (!ready.length) return [];
      const rows = await queryRows<{ id: number; delivery_id: string; attempts: number; message: NotificationMessage; channel_id: number }>(
        db,
        `WITH due AS (
           SELECT id, row_number() OVER (PARTITION BY channel_id ORDER BY created_at, id) AS place FROM notification_outbox
           WHERE channel_id = ANY($1::int[]) AND status = 'pending' AND next_attempt_at <= now()
             AND (locked_until IS NULL OR locked_until < now())
         )
         UPDATE notification_outbox o SET locked_until = now() + make_interval(secs => $2::float8 / 1000), attempts = o.attempts + 1
         FROM due WHERE o.id = due.id AND due.place <= ${GROUP_MAX}
         RETURNING o.id::int, o.delivery_id, o.attempts, o.message, o.channel_id, o.created_at`,
        [ready.map((c) => c.id), leaseMs],
      );
      const byChannel = new Map<number, typeof rows>();
      for (const row of rows) byChannel.set(row.channel_id, [...(byChannel.get(row.channel_id) ?? []), row]);
      const combined = [...byChannel].filter(([, list]) => list.length > 1).map(([id]) => id);
      // A storm is on: the channel's next message waits for its interval.
      if (combined.length)
        await execute(db, `UPDATE notification_channels SET group_sent_at = now() WHERE id = ANY($1::int[])`, [combined]);
      const channels = await this.channelsOf(db, [...byChannel.keys()]);
      return [...byChannel].map(([channelId, list]) => {
        list.sort((a, b) => a.id - b.id);
        const group = list.map((r) => ({ id: r.id, attempts: r.attempts, message: r.message, deliveryId: r.delivery_id }));
        return {
          id: list[0].id,
          // The same rows make the same key on every attempt; other rows, another key.
          deliveryId: list.length === 1 ? list[0].delivery_id : groupKey(list.map((r) => r.delivery_id)),
          attempts: Math.max(...list.map((r) => r.attempts)),
          message: list[0].message,
          channelId,
          channel: channels.get(channelId) ?? null,
          ...(list.length > 1 ? { group } : {}),
        };
      });
    });
  }

  /** Records one attempt for every row of a grouped message and moves them all on alike, in one statement. */
  async finishGroup(rows: Array<{ id: number }>, record: AttemptRecord, outcome: Outcome): Promise<void> {
    await this.move(
      rows.map((row) => row.id),
      null,
      record,
      outcome,
    );
  }

  /** Records the attempt and moves the notification on, in one statement. */
  async finish(id: number, attempt: number, record: AttemptRecord, outcome: Outcome): Promise<void> {
    await this.move([id], attempt, record, outcome);
  }

  /** Moves rows on after an attempt and records it for each (`attempt` null: each row's own count). */
  private async move(ids: number[], attempt: number | null, record: AttemptRecord, outcome: Outcome): Promise<void> {
    await execute(
      this.dataSource,
      `WITH moved AS (
         UPDATE notification_outbox SET
           status = CASE WHEN $3::varchar = 'retry' THEN 'pending' ELSE $3::varchar END,
           sent_at = CASE WHEN $3::varchar = 'sent' THEN now() ELSE sent_at END,
           next_attempt_at = CASE WHEN $3::varchar = 'retry' THEN now() + make_interval(secs => $4::float8 / 1000) ELSE next_attempt_at END,
           last_error = CASE WHEN $3::varchar = 'sent' THEN NULL ELSE $5::text END,
           locked_until = NULL
         WHERE id = ANY($1::bigint[]) RETURNING id, attempts
       )
       INSERT INTO notification_attempts (outbox_id, attempt, ok, http_status, detail, duration_ms)
       SELECT id, coalesce($2::int, attempts), $6, $7, $5::text, $8 FROM moved`,
      [
        ids,
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
