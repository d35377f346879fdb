import { MigrationInterface, QueryRunner } from 'typeorm';

export class Status1764100000000 implements MigrationInterface {
  name = 'Status1764100000000';

  async up(db: QueryRunner): Promise<void> {
    // Selections as rows with foreign keys, so a deleted monitor or agent leaves the status page by itself.
    await db.query(`CREATE TABLE status_monitors (monitor_id integer PRIMARY KEY REFERENCES monitors (id) ON DELETE CASCADE)`);
    await db.query(`CREATE TABLE status_agents (agent_id integer PRIMARY KEY REFERENCES agents (id) ON DELETE CASCADE)`);
    await db.query(`
      CREATE TABLE display_keys (
        id           serial PRIMARY KEY,
        name         varchar(100) NOT NULL,
        key_hash     char(64) NOT NULL UNIQUE,
        created_by   integer REFERENCES users (id) ON DELETE SET NULL,
        created_at   timestamptz NOT NULL DEFAULT now(),
        last_used_at timestamptz
      )`);
    // The feed of recent transitions shown by the dashboard and the wall.
    await db.query(`
      CREATE TABLE status_changes (
        id        bigserial PRIMARY KEY,
        kind      varchar(7) NOT NULL CHECK (kind IN ('monitor', 'agent')),
        target_id integer NOT NULL,
        name      varchar(100) NOT NULL,
        previous  varchar(10) NOT NULL,
        status    varchar(10) NOT NULL,
        at        timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`CREATE INDEX status_changes_at ON status_changes (at DESC)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE status_changes`);
    await db.query(`DROP TABLE display_keys`);
    await db.query(`DROP TABLE status_agents`);
    await db.query(`DROP TABLE status_monitors`);
  }
}
