import { Injectable } from '@nestjs/common';
import type { AlertMetric } from '@vigil/proto';
import { execute, queryRows, type Sql } from '../database/rows';

/** Where one watched quantity of one monitor or agent stands: its open episode, if any, and the streak towards one. */
export interface AlertState {
  kind: 'monitor' | 'agent';
  target_id: number;
  metric: AlertMetric;
  streak: number;
  open: boolean;
  since: Date | null;
  episode: number;
  notified: boolean;
}

/** The alert episodes (`alert_state`), read and written inside the transaction that records the event. */
@Injectable()
export class AlertStateRepository {
  load(db: Sql, kind: AlertState['kind'], ids: number[], metrics: ReadonlyArray<AlertState['metric']>): Promise<AlertState[]> {
    return queryRows<AlertState>(
      db,
      `SELECT kind, target_id, metric, streak, open, since, episode, notified FROM alert_state
       WHERE kind = $1 AND target_id = ANY($2::int[]) AND metric = ANY($3::varchar[])`,
      [kind, ids, metrics],
    );
  }

  async save(db: Sql, states: AlertState[]): Promise<void> {
    await execute(
      db,
      `INSERT INTO alert_state AS s (kind, target_id, metric, streak, open, since, episode, notified)
       SELECT kind, target_id, metric, streak, open, since, episode, notified
       FROM jsonb_to_recordset($1::jsonb) AS r(kind varchar, target_id int, metric varchar, streak int, open boolean,
         since timestamptz, episode int, notified boolean)
       ON CONFLICT (kind, target_id, metric) DO UPDATE SET streak = excluded.streak, open = excluded.open,
         since = excluded.since, episode = excluded.episode, notified = excluded.notified`,
      [JSON.stringify(states)],
    );
  }
}
