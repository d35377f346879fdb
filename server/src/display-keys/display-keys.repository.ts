import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { queryRow, queryRows, type Sql } from '../database/rows';

/** A display key as listed; its hash never leaves the repository. */
export interface DisplayKeyRow {
  id: number;
  name: string;
  created_at: Date;
  last_used_at: Date | null;
}

/** The `display_keys` table. Keys are looked up by the SHA-256 of their secret. */
@Injectable()
export class DisplayKeysRepository {
  constructor(private readonly dataSource: DataSource) {}

  list(): Promise<DisplayKeyRow[]> {
    return queryRows<DisplayKeyRow>(this.dataSource, `SELECT id, name, created_at, last_used_at FROM display_keys ORDER BY id`);
  }

  async insert(name: string, keyHash: string, userId: number, db: Sql = this.dataSource): Promise<DisplayKeyRow> {
    const row = await queryRow<DisplayKeyRow>(
      db,
      `INSERT INTO display_keys (name, key_hash, created_by) VALUES ($1, $2, $3) RETURNING id, name, created_at, last_used_at`,
      [name, keyHash, userId],
    );
    return row!;
  }

  /** The revoked key's name, or null when there was no such key. */
  async delete(id: number, db: Sql = this.dataSource): Promise<string | null> {
    const row = await queryRow<{ name: string }>(db, `DELETE FROM display_keys WHERE id = $1 RETURNING name`, [id]);
    return row?.name ?? null;
  }

  /**
   * The id of the key with this hash, or null, in one statement: a wrong key costs one lookup. Marks the key used
   * unless that was done within the last minute.
   */
  async use(keyHash: string): Promise<number | null> {
    const row = await queryRow<{ id: number }>(
      this.dataSource,
      `WITH key AS (SELECT id, last_used_at FROM display_keys WHERE key_hash = $1),
         touched AS (
           UPDATE display_keys d SET last_used_at = now() FROM key
           WHERE d.id = key.id AND (key.last_used_at IS NULL OR key.last_used_at < now() - interval '1 minute')
         )
       SELECT id FROM key`,
      [keyHash],
    );
    return row?.id ?? null;
  }
}
