import { MigrationInterface, QueryRunner } from 'typeorm';

export class Initial1763800000000 implements MigrationInterface {
  name = 'Initial1763800000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE users (
        id            serial PRIMARY KEY,
        username      varchar(32) NOT NULL,
        email         varchar(254),
        password_hash text NOT NULL,
        role          varchar(16) NOT NULL DEFAULT 'user' CHECK (role IN ('admin', 'user')),
        token_version integer NOT NULL DEFAULT 0,
        created_at    timestamptz NOT NULL DEFAULT now(),
        updated_at    timestamptz NOT NULL DEFAULT now()
      )`);
    // Names and addresses are unique regardless of case: "Admin" and "admin" are one account.
    await db.query(`CREATE UNIQUE INDEX users_username_key ON users (lower(username))`);
    await db.query(`CREATE UNIQUE INDEX users_email_key ON users (lower(email)) WHERE email IS NOT NULL`);
    await db.query(`
      CREATE TABLE settings (
        key        varchar(64) PRIMARY KEY,
        value      jsonb NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE settings`);
    await db.query(`DROP TABLE users`);
  }
}
