import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Two-factor sign-in. `two_factor` holds one TOTP secret per user: pending (`enabled_at` null) from setup until a code
 * confirms it, then enabled; `last_step` is the newest 30-second step a code was accepted for, so a code cannot be
 * used twice. The secret is stored as it is (see docs/security.md, Secrets): every other key of the instance lives in
 * this database too, so a key to encrypt it with would sit beside it. `recovery_codes` are the ten one-time codes,
 * stored as SHA-256 of 80 random bits each. The admin's "require two-factor sign-in" lives in `settings`
 * (`require_two_factor`), off unless set.
 */
export class TwoFactor1765100000000 implements MigrationInterface {
  name = 'TwoFactor1765100000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE two_factor (
        user_id    integer PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
        secret     text NOT NULL,
        enabled_at timestamptz,
        last_step  bigint,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`
      CREATE TABLE recovery_codes (
        id         serial PRIMARY KEY,
        user_id    integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        code_hash  char(64) NOT NULL,
        used_at    timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (user_id, code_hash)
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE recovery_codes`);
    await db.query(`DROP TABLE two_factor`);
    await db.query(`DELETE FROM settings WHERE key = 'require_two_factor'`);
  }
}
