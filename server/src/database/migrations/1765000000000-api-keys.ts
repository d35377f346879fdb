import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * API keys (`vgk_…`), stored as the SHA-256 of the key (a long random secret, so a fast hash suffices); `prefix` keeps
 * the first characters to recognise a key in lists. Revoked keys stay listed (`revoked_at`) until their owner goes.
 * Also adds the read-only `viewer` role.
 */
export class ApiKeys1765000000000 implements MigrationInterface {
  name = 'ApiKeys1765000000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE api_keys (
        id           serial PRIMARY KEY,
        user_id      integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        name         varchar(64) NOT NULL,
        prefix       varchar(16) NOT NULL,
        key_hash     char(64) NOT NULL,
        scope        varchar(8) NOT NULL CHECK (scope IN ('read', 'write', 'metrics')),
        expires_at   timestamptz,
        last_used_at timestamptz,
        revoked_at   timestamptz,
        created_at   timestamptz NOT NULL DEFAULT now()
      )`);
    // Every request with a key looks it up by its hash.
    await db.query(`CREATE UNIQUE INDEX api_keys_key_hash_key ON api_keys (key_hash)`);
    await db.query(`CREATE INDEX api_keys_user_idx ON api_keys (user_id)`);
    await db.query(`ALTER TABLE users DROP CONSTRAINT users_role_check`);
    await db.query(`ALTER TABLE users ADD CONSTRAINT users_role_check CHECK (role IN ('admin', 'user', 'viewer'))`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`UPDATE users SET role = 'user' WHERE role = 'viewer'`);
    await db.query(`ALTER TABLE users DROP CONSTRAINT users_role_check`);
    await db.query(`ALTER TABLE users ADD CONSTRAINT users_role_check CHECK (role IN ('admin', 'user'))`);
    await db.query(`DROP TABLE api_keys`);
  }
}
