import { Injectable } from '@nestjs/common';
import type { DisplayKeyDto } from '@vigil/proto';
import { createHash, randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { affectedCount, firstRow } from '../database/rows';
import { DomainEvents } from '../events/domain-events.service';

interface KeyRow {
  id: number;
  name: string;
  created_at: Date;
  last_used_at: Date | null;
}

const hash = (secret: string) => createHash('sha256').update(secret).digest('hex');

const toDto = (row: KeyRow): DisplayKeyDto => ({
  id: row.id,
  name: row.name,
  created_at: new Date(row.created_at).toISOString(),
  last_used_at: row.last_used_at ? new Date(row.last_used_at).toISOString() : null,
});

/**
 * Read-only display links for wall screens: a long random key, stored as a SHA-256, that grants the wall's data and
 * its live updates and nothing else. Unlike a session it does not expire; an admin revokes it.
 */
@Injectable()
export class DisplayKeysService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly events: DomainEvents,
  ) {}

  async list(): Promise<DisplayKeyDto[]> {
    const rows: KeyRow[] = await this.dataSource.query(`SELECT id, name, created_at, last_used_at FROM display_keys ORDER BY id`);
    return rows.map(toDto);
  }

  async create(name: string, userId: number): Promise<{ key: DisplayKeyDto; secret: string }> {
    const secret = `vgd_${randomBytes(24).toString('base64url')}`;
    const [row] = await this.dataSource.query(
      `INSERT INTO display_keys (name, key_hash, created_by) VALUES ($1, $2, $3) RETURNING id, name, created_at, last_used_at`,
      [name, hash(secret), userId],
    );
    return { key: toDto(row), secret };
  }

  /** Returns false when there was no such key. Sockets opened with it are dropped on the event. */
  async revoke(id: number): Promise<boolean> {
    const result = await this.dataSource.query(`DELETE FROM display_keys WHERE id = $1 RETURNING id`, [id]);
    const removed = affectedCount(result) > 0;
    if (removed) this.events.emit('display_key.revoked', { id });
    return removed;
  }

  /** The id of a live key, or null. Marks it used (at most once a minute, to keep reads cheap). */
  async verify(secret: unknown): Promise<number | null> {
    if (typeof secret !== 'string' || secret.length < 8 || secret.length > 200) return null;
    const result = await this.dataSource.query(
      `UPDATE display_keys SET last_used_at = now()
       WHERE key_hash = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute') RETURNING id`,
      [hash(secret)],
    );
    const touched = firstRow<{ id: number }>(result);
    if (touched) return touched.id;
    const [row] = await this.dataSource.query(`SELECT id FROM display_keys WHERE key_hash = $1`, [hash(secret)]);
    return row?.id ?? null;
  }
}
