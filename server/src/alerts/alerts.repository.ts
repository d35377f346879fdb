import { Injectable } from '@nestjs/common';
import { queryRow, type Sql } from '../database/rows';

/** Mute per monitor and agent (the alert rows themselves: notifications/alert-records.repository.ts). */
@Injectable()
export class MuteRepository {
  /** Sets or clears `muted_until`; the target's name and what it was, or null when it does not exist. */
  mute(db: Sql, kind: 'monitor' | 'agent', id: number, until: Date | null): Promise<{ name: string; before: Date | null } | null> {
    const table = kind === 'monitor' ? 'monitors' : 'agents';
    return queryRow(
      db,
      `UPDATE ${table} t SET muted_until = $2 FROM (SELECT id, muted_until FROM ${table} WHERE id = $1 FOR UPDATE) old
       WHERE t.id = old.id RETURNING t.name, old.muted_until AS before`,
      [id, until],
    );
  }
}
