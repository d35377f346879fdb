import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 34, requirement 1 (a lossless Uptime Kuma import): monitors get a description, tags and upside-down mode.
 * Tags are a text[] with a GIN index, so `GET /api/monitors?tag=` (`tags @> ARRAY[tag]`) stays an index scan at
 * 10,000 monitors. Constant defaults: adding the columns rewrites no rows.
 */
export class MonitorLabels1765770000000 implements MigrationInterface {
  name = 'MonitorLabels1765770000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE monitors
      ADD COLUMN description text NULL,
      ADD COLUMN tags text[] NOT NULL DEFAULT '{}',
      ADD COLUMN upside_down boolean NOT NULL DEFAULT false`);
    await db.query(`CREATE INDEX monitors_tags ON monitors USING gin (tags)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX monitors_tags`);
    await db.query(`ALTER TABLE monitors DROP COLUMN upside_down, DROP COLUMN tags, DROP COLUMN description`);
  }
}
