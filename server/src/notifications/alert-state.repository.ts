import { Injectable } from '@nestjs/common';
import type { AlertMetric } from '@vigil/proto';
import { execute, queryRows, type Sql } from '../database/rows';

/** Where one watched quantity of one monitor or agent stands: its open episode, if any, and the streak towards one. */
export interface AlertState {
  kind: 'monitor' | 'agent';
  target_id: number;
  metric: AlertMetric;
  /** The container or systemd unit of a per-item metric; '' for the others. */
  item: string;
  streak: number;
  open: boolean;
  since: Date | null;
  episode: number;
  notified: boolean;
}

/** The alert episodes (`alert_state`), read and written inside the transaction that records the event. */
@Injectable()
export class AlertStateRepository {
  /** Every item's state of each metric (a per-item metric has one row per container or unit). */
  load(db: Sql, kind: AlertState['kind'], ids: number[], metrics: ReadonlyArray<AlertState['metric']>): Promise<AlertState[]> {
    return queryRows<AlertState>(
      db,
      `SELECT kind, target_id, metric, item, streak, open, since, episode, notified FROM alert_state
       WHERE kind = $1 AND target_id = ANY($2::int[]) AND metric = ANY($3::varchar[])`,
      [kind, ids, metrics],
    );
  }

  async save(db: Sql, states: AlertState[]): Promise<void> {
    await execute(
      db,
      `INSERT INTO alert_state AS s (kind, target_id, metric, item, streak, open, since, episode, notified)
       SELECT kind, target_id, metric, coalesce(item, ''), streak, open, since, episode, notified
       FROM jsonb_to_recordset($1::jsonb) AS r(kind varchar, target_id int, metric varchar, item varchar, streak int,
         open boolean, since timestamptz, episode int, notified boolean)
       ON CONFLICT (kind, target_id, metric, item) DO UPDATE SET streak = excluded.streak, open = excluded.open,
         since = excluded.since, episode = excluded.episode, notified = excluded.notified`,
      [JSON.stringify(states)],
    );
  }

  /** Forgets items no longer watched (a unit dropped from `--services`, a closed episode of a vanished container). */
  async forget(db: Sql, states: Array<Pick<AlertState, 'kind' | 'target_id' | 'metric' | 'item'>>): Promise<void> {
    if (!states.length) return;
    await execute(
      db,
      `DELETE FROM alert_state s USING jsonb_to_recordset($1::jsonb) AS r(kind varchar, target_id int, metric varchar, item varchar)
       WHERE s.kind = r.kind AND s.target_id = r.target_id AND s.metric = r.metric AND s.item = r.item`,
      [JSON.stringify(states)],
    );
  }
}
