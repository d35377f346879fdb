import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { execute, queryRow, type Sql } from '../../database/rows';

/** A user's TOTP secret, pending until a code confirms it. */
export interface TwoFactorRow {
  secret: string;
  enabled: boolean;
}

/** The `two_factor` and `recovery_codes` tables: one secret per user and their one-time recovery codes. */
@Injectable()
export class TwoFactorRepository {
  constructor(private readonly dataSource: DataSource) {}

  find(userId: number): Promise<TwoFactorRow | null> {
    return queryRow<TwoFactorRow>(this.dataSource, `SELECT secret, enabled_at IS NOT NULL AS enabled FROM two_factor WHERE user_id = $1`, [
      userId,
    ]);
  }

  /** Stores a new pending secret (replacing a pending one); false when two-factor sign-in is already enabled. */
  async savePending(userId: number, secret: string): Promise<boolean> {
    const written = await execute(
      this.dataSource,
      `INSERT INTO two_factor (user_id, secret) VALUES ($1, $2)
       ON CONFLICT (user_id) DO UPDATE SET secret = EXCLUDED.secret, last_step = NULL, created_at = now()
         WHERE two_factor.enabled_at IS NULL
       RETURNING user_id`,
      [userId, secret],
    );
    return written > 0;
  }

  /**
   * Enables the pending secret the code was checked against (not one a concurrent setup put in its place), marks the
   * code's step used and stores the recovery codes (`db`: a transaction's manager, so all at once); false when that
   * secret is no longer pending.
   */
  async enable(db: Sql, userId: number, secret: string, step: number, codeHashes: string[]): Promise<boolean> {
    const enabled = await execute(
      db,
      `UPDATE two_factor SET enabled_at = now(), last_step = $3
       WHERE user_id = $1 AND secret = $2 AND enabled_at IS NULL RETURNING user_id`,
      [userId, secret, step],
    );
    if (enabled === 0) return false;
    await this.writeRecoveryCodes(db, userId, codeHashes);
    return true;
  }

  /**
   * Marks a step used, unless this or a later step already was: one conditional UPDATE, so two sign-ins racing with
   * the same code (on any instance) cannot both pass.
   */
  async useStep(userId: number, step: number): Promise<boolean> {
    const used = await execute(
      this.dataSource,
      `UPDATE two_factor SET last_step = $2
       WHERE user_id = $1 AND enabled_at IS NOT NULL AND (last_step IS NULL OR last_step < $2) RETURNING user_id`,
      [userId, step],
    );
    return used > 0;
  }

  /** Uses up an unused recovery code of this user; false when there is none with this hash. */
  async useRecoveryCode(userId: number, codeHash: string): Promise<boolean> {
    const used = await execute(
      this.dataSource,
      `UPDATE recovery_codes SET used_at = now() WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL RETURNING id`,
      [userId, codeHash],
    );
    return used > 0;
  }

  async recoveryCodesLeft(userId: number): Promise<number> {
    const row = await queryRow<{ remaining: number }>(
      this.dataSource,
      `SELECT count(*)::int AS remaining FROM recovery_codes WHERE user_id = $1 AND used_at IS NULL`,
      [userId],
    );
    return row?.remaining ?? 0;
  }

  /** Replaces every recovery code (used or not) with new ones. */
  replaceRecoveryCodes(userId: number, codeHashes: string[]): Promise<void> {
    return this.dataSource.transaction((manager) => this.writeRecoveryCodes(manager, userId, codeHashes));
  }

  /** Removes the secret and the recovery codes (`db`: a transaction's manager, as it takes two statements). */
  async disable(db: Sql, userId: number): Promise<void> {
    await execute(db, `DELETE FROM recovery_codes WHERE user_id = $1`, [userId]);
    await execute(db, `DELETE FROM two_factor WHERE user_id = $1`, [userId]);
  }

  private async writeRecoveryCodes(db: Sql, userId: number, codeHashes: string[]): Promise<void> {
    await execute(db, `DELETE FROM recovery_codes WHERE user_id = $1`, [userId]);
    await execute(db, `INSERT INTO recovery_codes (user_id, code_hash) SELECT $1, unnest($2::text[])`, [userId, codeHashes]);
  }
}
