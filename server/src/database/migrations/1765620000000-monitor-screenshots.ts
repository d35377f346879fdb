import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The screenshot of each browser monitor's last failed check (monitors/types/browser): one row per monitor, replaced
 * by the next failure, gone with its monitor. A PNG of at most 2 MiB, served at `GET /api/monitors/{id}/screenshot`.
 */
export class MonitorScreenshots1765620000000 implements MigrationInterface {
  name = 'MonitorScreenshots1765620000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE monitor_screenshots (
        monitor_id integer PRIMARY KEY REFERENCES monitors (id) ON DELETE CASCADE,
        png        bytea NOT NULL,
        error      text NOT NULL,
        taken_at   timestamptz NOT NULL
      )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE monitor_screenshots`);
  }
}
