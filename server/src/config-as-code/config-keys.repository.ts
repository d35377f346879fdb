import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { execute, queryRows, type Sql } from '../database/rows';

/** Key → id of every row a document names (status pages by slug, agents by name). */
export interface KeyedIds {
  monitors: Map<string, number>;
  channels: Map<string, number>;
  maintenance: Map<string, number>;
  statusPages: Map<string, number>;
  agents: Map<string, number>;
}

/** The tables whose rows carry a `key` column (the importer sets keys through `setKey` too). */
export type KeyedTable = 'monitors' | 'notification_channels' | 'maintenance';

/**
 * The `key` columns: read all at once, and set after a row is created through its service (a row inserted without a
 * key gets one from its name, by trigger; the document's own key then replaces it in the same transaction).
 */
@Injectable()
export class ConfigKeysRepository {
  constructor(private readonly dataSource: DataSource) {}

  async read(db: Sql = this.dataSource): Promise<KeyedIds> {
    const rows = await queryRows<{ kind: keyof KeyedIds; key: string; id: number }>(
      db,
      `SELECT 'monitors' AS kind, key, id FROM monitors
       UNION ALL SELECT 'channels', key, id FROM notification_channels
       UNION ALL SELECT 'maintenance', key, id FROM maintenance
       UNION ALL SELECT 'statusPages', slug, id FROM status_pages
       UNION ALL SELECT 'agents', name, id FROM agents`,
    );
    const ids: KeyedIds = { monitors: new Map(), channels: new Map(), maintenance: new Map(), statusPages: new Map(), agents: new Map() };
    // Agents' names need not be unique: the first (lowest id) keeps the name.
    for (const row of rows.sort((a, b) => b.id - a.id)) ids[row.kind].set(row.key, row.id);
    return ids;
  }

  async setKey(table: KeyedTable, id: number, key: string, db: Sql = this.dataSource): Promise<void> {
    await execute(db, `UPDATE ${table} SET key = $2 WHERE id = $1 AND key IS DISTINCT FROM $2`, [id, key]);
  }
}
