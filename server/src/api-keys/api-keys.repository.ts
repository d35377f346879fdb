import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { ApiKeyScope, Role } from '@vigil/proto';
import { queryRow, queryRows } from '../database/rows';

/** An API key as listed, with its owner's name; its hash never leaves the repository. */
export interface ApiKeyRow {
  id: number;
  user_id: number;
  username: string;
  name: string;
  prefix: string;
  scope: ApiKeyScope;
  expires_at: Date | null;
  last_used_at: Date | null;
  revoked_at: Date | null;
  created_at: Date;
}

/** A live key presented by a caller, with its owner as they are now. */
export interface ApiKeyHolder {
  id: number;
  scope: ApiKeyScope;
  user_id: number;
  username: string;
  role: Role;
}

const COLUMNS = `k.id, k.user_id, u.username, k.name, k.prefix, k.scope, k.expires_at, k.last_used_at, k.revoked_at, k.created_at`;

/** The `api_keys` table. Keys are looked up by the SHA-256 of their secret (a unique index). */
@Injectable()
export class ApiKeysRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** One user's keys, or everyone's (`userId` null), newest first. */
  list(userId: number | null): Promise<ApiKeyRow[]> {
    return queryRows<ApiKeyRow>(
      this.dataSource,
      `SELECT ${COLUMNS} FROM api_keys k JOIN users u ON u.id = k.user_id
       WHERE $1::int IS NULL OR k.user_id = $1 ORDER BY k.id DESC`,
      [userId],
    );
  }

  /**
   * Inserts a key unless its owner already holds `max` live ones (checked in the same statement, serialised on the
   * owner's row so two concurrent creations cannot both pass). Null when over the limit. Runs in the caller's
   * transaction (`tx`), so the key and its audit entry commit together.
   */
  async insert(
    tx: EntityManager,
    key: { userId: number; name: string; prefix: string; hash: string; scope: ApiKeyScope; expiresInDays: number | null },
    max: number,
  ): Promise<ApiKeyRow | null> {
    await tx.query(`SELECT id FROM users WHERE id = $1 FOR UPDATE`, [key.userId]);
    const live = await queryRow<{ count: string }>(
      tx,
      `SELECT count(*) AS count FROM api_keys WHERE user_id = $1 AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())`,
      [key.userId],
    );
    if (Number(live?.count ?? 0) >= max) return null;
    const inserted = await queryRow<{ id: number }>(
      tx,
      `INSERT INTO api_keys (user_id, name, prefix, key_hash, scope, expires_at)
       VALUES ($1, $2, $3, $4, $5, CASE WHEN $6::int IS NULL THEN NULL ELSE now() + make_interval(days => $6::int) END)
       RETURNING id`,
      [key.userId, key.name, key.prefix, key.hash, key.scope, key.expiresInDays],
    );
    return queryRow<ApiKeyRow>(tx, `SELECT ${COLUMNS} FROM api_keys k JOIN users u ON u.id = k.user_id WHERE k.id = $1`, [inserted!.id]);
  }

  /** The revoked key's name, or null when there is no live key `id` of `userId` (any owner's when null). */
  async revoke(tx: EntityManager, id: number, userId: number | null): Promise<{ id: number; name: string } | null> {
    return queryRow<{ id: number; name: string }>(
      tx,
      `UPDATE api_keys SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL AND ($2::int IS NULL OR user_id = $2) RETURNING id, name`,
      [id, userId],
    );
  }

  /**
   * The live key with this hash and its owner as stored now, or null, in one statement: an unknown, revoked or expired
   * key costs the same one index lookup. Marks the key used unless that was done within the last minute, so a busy
   * scraper does not write on every request.
   */
  use(keyHash: string): Promise<ApiKeyHolder | null> {
    return queryRow<ApiKeyHolder>(
      this.dataSource,
      `WITH key AS (
         SELECT k.id, k.scope, k.last_used_at, u.id AS user_id, u.username, u.role
         FROM api_keys k JOIN users u ON u.id = k.user_id
         WHERE k.key_hash = $1 AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > now())
       ),
       touched AS (
         UPDATE api_keys a SET last_used_at = now() FROM key
         WHERE a.id = key.id AND (key.last_used_at IS NULL OR key.last_used_at < now() - interval '1 minute')
       )
       SELECT id, scope, user_id, username, role FROM key`,
      [keyHash],
    );
  }
}
