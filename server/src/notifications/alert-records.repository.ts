import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { AlertDto, AlertMessageDto, AlertMetric, AlertStateName } from '@vigil/proto';
import { DataSource } from 'typeorm';
import { execute, queryRow, queryRows, type Sql } from '../database/rows';

export type TargetKind = 'monitor' | 'agent';

/** One episode as the `alerts` table holds it. */
export interface AlertRow {
  id: number;
  target_kind: TargetKind;
  target_id: number;
  target_name: string;
  metric: AlertMetric;
  /** The container or unit of a per-item metric; '' for the others. */
  item: string;
  episode: number;
  opened_at: Date;
  closed_at: Date | null;
  acknowledged_at: Date | null;
  acknowledged_by: number | null;
  acknowledged_name: string | null;
  ack_note: string | null;
  escalation_step: number;
  reminders_sent: number;
}

/** An episode opening or closing, keyed as its messages name it (`monitor:12:status:3`). */
export interface EpisodeEdge {
  target_kind: TargetKind;
  target_id: number;
  target_name: string;
  metric: AlertMetric;
  /** The container or unit of a per-item metric; absent or '' for the others. */
  item?: string;
  episode: number;
  at: Date;
  /** Openings: when the reminder sweep first looks at it (`firstDue`). */
  due_at?: Date;
}

export interface AlertFilter {
  state: AlertStateName | 'all';
  kind?: TargetKind;
  targetId?: number;
  search?: string;
  limit: number;
  offset: number;
}

/** A monitor or agent that depends on another, directly or through others. */
export interface Dependent {
  kind: TargetKind;
  id: number;
  name: string;
}

const COLUMNS = `a.id, a.target_kind, a.target_id, a.target_name, a.metric, a.item, a.episode, a.opened_at, a.closed_at,
  a.acknowledged_at, a.acknowledged_by, a.acknowledged_name, a.ack_note, a.escalation_step, a.reminders_sent`;
/** Open (unacknowledged, then acknowledged) first, then the most recent. */
const ORDER = `(a.closed_at IS NULL) DESC, (a.acknowledged_at IS NULL) DESC, a.opened_at DESC, a.id DESC`;
/** Incident services that file alerts by episode and take an acknowledgement. */
export const ACK_CHANNEL_TYPES = ['pagerduty', 'opsgenie'];

/** Item names kept as they are in keys; a longer one is digested, so a key stays within the outbox's 255 characters. */
const ITEM_KEY_MAX = 64;

/** The part of a key naming the metric and its item (`containerDown:web`; just the metric when it has none). */
export const metricKey = (metric: AlertMetric, item?: string) =>
  item ? `${metric}:${item.length <= ITEM_KEY_MAX ? item : createHash('sha256').update(item).digest('hex').slice(0, 32)}` : metric;

export const episodeKey = (e: Pick<EpisodeEdge, 'target_kind' | 'target_id' | 'metric' | 'item' | 'episode'>) =>
  `${e.target_kind}:${e.target_id}:${metricKey(e.metric, e.item)}:${e.episode}`;

/** The `alerts` table: written in the transaction that opens or closes an episode, read by the alerts API. */
@Injectable()
export class AlertRecordsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Records opened episodes (one already recorded is kept); their ids by episode key. */
  async open(db: Sql, edges: EpisodeEdge[]): Promise<Map<string, number>> {
    if (!edges.length) return new Map();
    const rows = await queryRows<Pick<AlertRow, 'id' | 'target_kind' | 'target_id' | 'metric' | 'item' | 'episode'>>(
      db,
      `WITH input AS (
         SELECT target_kind, target_id, target_name, metric, coalesce(item, '') AS item, episode, at, due_at
         FROM jsonb_to_recordset($1::jsonb) AS r(target_kind varchar, target_id int, target_name varchar, metric varchar,
           item varchar, episode int, at timestamptz, due_at timestamptz)
       ), inserted AS (
         INSERT INTO alerts (target_kind, target_id, target_name, metric, item, episode, opened_at, due_at)
         SELECT target_kind, target_id, left(target_name, 255), metric, item, episode, at, due_at FROM input
         ON CONFLICT (target_kind, target_id, metric, item, episode) DO NOTHING
         RETURNING id, target_kind, target_id, metric, item, episode
       )
       SELECT * FROM inserted
       UNION ALL
       SELECT a.id, a.target_kind, a.target_id, a.metric, a.item, a.episode FROM alerts a JOIN input i
         ON a.target_kind = i.target_kind AND a.target_id = i.target_id AND a.metric = i.metric AND a.item = i.item
           AND a.episode = i.episode`,
      [JSON.stringify(edges)],
    );
    return new Map(rows.map((row) => [episodeKey(row), row.id]));
  }

  /** Closes episodes still open; the ids of the alerts of `edges` (closed now or before) by episode key. */
  async close(db: Sql, edges: EpisodeEdge[]): Promise<Map<string, number>> {
    if (!edges.length) return new Map();
    const rows = await queryRows<Pick<AlertRow, 'id' | 'target_kind' | 'target_id' | 'metric' | 'item' | 'episode'>>(
      db,
      `UPDATE alerts a SET closed_at = coalesce(a.closed_at, i.at)
       FROM jsonb_to_recordset($1::jsonb) AS i(target_kind varchar, target_id int, metric varchar, item varchar, episode int,
         at timestamptz)
       WHERE a.target_kind = i.target_kind AND a.target_id = i.target_id AND a.metric = i.metric
         AND a.item = coalesce(i.item, '') AND a.episode = i.episode
       RETURNING a.id, a.target_kind, a.target_id, a.metric, a.item, a.episode`,
      [JSON.stringify(edges)],
    );
    return new Map(rows.map((row) => [episodeKey(row), row.id]));
  }

  /** The targets among `ids` muted now. */
  async muted(db: Sql, kind: TargetKind, ids: number[]): Promise<Set<number>> {
    if (!ids.length) return new Set();
    const table = kind === 'monitor' ? 'monitors' : 'agents';
    const rows = await queryRows<{ id: number }>(db, `SELECT id FROM ${table} WHERE id = ANY($1::int[]) AND muted_until > now()`, [ids]);
    return new Set(rows.map((row) => row.id));
  }

  /**
   * Everything that depends on each root, directly or through others (ten levels at most, so a cycle saved before
   * cycles were refused cannot loop), named, by root key `kind:id`.
   */
  async dependents(db: Sql, roots: Array<{ kind: TargetKind; id: number }>): Promise<Map<string, Dependent[]>> {
    if (!roots.length) return new Map();
    const rows = await queryRows<{ root: string; kind: TargetKind; id: number; name: string }>(
      db,
      `WITH RECURSIVE targets AS (
         SELECT 'monitor'::text AS kind, id, name, depends_on FROM monitors
         UNION ALL SELECT 'agent', id, name, depends_on FROM agents
       ), deps(root, kind, id, name, depth) AS (
         SELECT r.kind || ':' || r.id, t.kind, t.id, t.name, 1
         FROM unnest($1::text[], $2::int[]) AS r(kind, id)
         JOIN targets t ON t.depends_on @> jsonb_build_array(jsonb_build_object('type', r.kind, 'id', r.id))
         UNION
         SELECT d.root, t.kind, t.id, t.name, d.depth + 1
         FROM deps d JOIN targets t ON t.depends_on @> jsonb_build_array(jsonb_build_object('type', d.kind, 'id', d.id))
         WHERE d.depth < 10
       )
       SELECT DISTINCT ON (root, kind, id) root, kind, id, name FROM deps ORDER BY root, kind, id, depth`,
      [roots.map((r) => r.kind), roots.map((r) => r.id)],
    );
    const byRoot = new Map<string, Dependent[]>();
    for (const row of rows) {
      if (row.root === `${row.kind}:${row.id}`) continue;
      byRoot.set(row.root, [...(byRoot.get(row.root) ?? []), { kind: row.kind, id: row.id, name: row.name }]);
    }
    for (const list of byRoot.values()) list.sort((a, b) => a.name.localeCompare(b.name));
    return byRoot;
  }

  async page(filter: AlertFilter): Promise<{ rows: AlertRow[]; total: number; counts: { open: number; acknowledged: number } }> {
    const where: string[] = [];
    const params: unknown[] = [];
    const add = (sql: string, value: unknown) => where.push(sql.replace('?', `$${params.push(value)}`));
    if (filter.state === 'open') where.push('a.closed_at IS NULL AND a.acknowledged_at IS NULL');
    if (filter.state === 'acknowledged') where.push('a.closed_at IS NULL AND a.acknowledged_at IS NOT NULL');
    if (filter.state === 'resolved') where.push('a.closed_at IS NOT NULL');
    if (filter.kind) add('a.target_kind = ?', filter.kind);
    if (filter.targetId !== undefined) add('a.target_id = ?', filter.targetId);
    if (filter.search)
      add(
        `a.target_name ILIKE '%' || ? || '%'`,
        filter.search.replace(/[\\%_]/g, (c) => `\\${c}`),
      );
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const rows = await queryRows<AlertRow & { total: string }>(
      this.dataSource,
      `SELECT ${COLUMNS}, count(*) OVER () AS total FROM alerts a ${clause} ORDER BY ${ORDER}
       LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, filter.limit, filter.offset],
    );
    const counts = await queryRow<{ open: string; acknowledged: string }>(
      this.dataSource,
      `SELECT count(*) FILTER (WHERE acknowledged_at IS NULL) AS open, count(*) FILTER (WHERE acknowledged_at IS NOT NULL) AS acknowledged
       FROM alerts WHERE closed_at IS NULL`,
    );
    let total = rows.length ? Number(rows[0].total) : 0;
    if (!rows.length && filter.offset > 0) {
      const counted = await queryRow<{ n: string }>(this.dataSource, `SELECT count(*) AS n FROM alerts a ${clause}`, params);
      total = Number(counted?.n ?? 0);
    }
    return { rows, total, counts: { open: Number(counts?.open ?? 0), acknowledged: Number(counts?.acknowledged ?? 0) } };
  }

  byIds(ids: number[], db: Sql = this.dataSource): Promise<AlertRow[]> {
    if (!ids.length) return Promise.resolve([]);
    return queryRows<AlertRow>(db, `SELECT ${COLUMNS} FROM alerts a WHERE a.id = ANY($1::int[]) ORDER BY ${ORDER}`, [ids]);
  }

  forUpdate(db: Sql, id: number): Promise<AlertRow | null> {
    return queryRow<AlertRow>(db, `SELECT ${COLUMNS} FROM alerts a WHERE a.id = $1 FOR UPDATE`, [id]);
  }

  async acknowledge(db: Sql, id: number, user: { id: number; username: string }, note: string | null): Promise<void> {
    await execute(
      db,
      `UPDATE alerts SET acknowledged_at = now(), acknowledged_by = $2, acknowledged_name = $3, ack_note = $4, due_at = NULL WHERE id = $1`,
      [id, user.id, user.username, note],
    );
  }

  /** The messages of the alerts `ids`, newest first, in one statement for a whole page. */
  async messages(ids: number[]): Promise<Map<number, AlertMessageDto[]>> {
    if (!ids.length) return new Map();
    const rows = await queryRows<AlertMessageDto & { alert_id: number; created_at: Date; sent_at: Date | null }>(
      this.dataSource,
      `SELECT id::int, alert_id, channel_id, channel_name, event, status, created_at, sent_at FROM notification_outbox
       WHERE alert_id = ANY($1::int[]) ORDER BY created_at DESC, id DESC`,
      [ids],
    );
    const byAlert = new Map<number, AlertMessageDto[]>();
    for (const { alert_id, ...message } of rows) {
      const dto = { ...message, created_at: iso(message.created_at)!, sent_at: iso(message.sent_at) };
      byAlert.set(alert_id, [...(byAlert.get(alert_id) ?? []), dto]);
    }
    return byAlert;
  }

  /** The incident channels (ACK_CHANNEL_TYPES) that were sent the alert's opening, still enabled. */
  ackChannels(db: Sql, alertId: number): Promise<Array<{ id: number; name: string; type: string }>> {
    return queryRows(
      db,
      `SELECT DISTINCT c.id, c.name, c.type FROM notification_outbox o JOIN notification_channels c ON c.id = o.channel_id
       WHERE o.alert_id = $1 AND c.enabled AND c.type = ANY($2::varchar[]) AND o.message->>'severity' = 'alert'`,
      [alertId, ACK_CHANNEL_TYPES],
    );
  }
}

export function toAlertDto(row: AlertRow, messages: AlertMessageDto[]): AlertDto {
  const state: AlertStateName = row.closed_at ? 'resolved' : row.acknowledged_at ? 'acknowledged' : 'open';
  return {
    id: row.id,
    target_kind: row.target_kind,
    target_id: row.target_id,
    target_name: row.target_name,
    metric: row.metric,
    ...(row.item ? { item: row.item } : {}),
    state,
    opened_at: iso(row.opened_at)!,
    closed_at: iso(row.closed_at),
    acknowledged_at: iso(row.acknowledged_at),
    acknowledged_by:
      row.acknowledged_at && row.acknowledged_by !== null ? { id: row.acknowledged_by, username: row.acknowledged_name ?? '' } : null,
    ack_note: row.ack_note,
    escalation_step: row.escalation_step,
    reminders_sent: row.reminders_sent,
    messages,
  };
}

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());
