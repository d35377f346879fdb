import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 32, checks from several locations: where each monitor is checked from and its quorum rule; the last result
 * of each location (`monitor_locations`, one row per monitor and location) and every location result
 * (`location_checks`, pruned with the checks) for its latency and uptime.
 */
export class MonitorLocations1765660000000 implements MigrationInterface {
  name = 'MonitorLocations1765660000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE monitors
        ADD COLUMN locations text[] NOT NULL DEFAULT '{server}',
        ADD COLUMN quorum varchar(8) NOT NULL DEFAULT 'any' CHECK (quorum IN ('any', 'majority', 'atLeast')),
        ADD COLUMN quorum_min integer NULL CHECK (quorum_min IS NULL OR quorum_min BETWEEN 1 AND 20)`);
    // Probing agents' monitors are found by agent: a GIN index answers "which monitors name agent:12".
    await db.query(`CREATE INDEX monitors_locations_idx ON monitors USING gin (locations) WHERE locations <> '{server}'`);
    await db.query(`
      CREATE TABLE monitor_locations (
        monitor_id integer NOT NULL REFERENCES monitors(id) ON DELETE CASCADE,
        location varchar(24) NOT NULL,
        status varchar(10) NOT NULL,
        status_code integer NULL,
        response_time integer NULL,
        error text NULL,
        checked_at timestamptz NOT NULL,
        PRIMARY KEY (monitor_id, location)
      )`);
    await db.query(`
      CREATE TABLE location_checks (
        id bigserial PRIMARY KEY,
        monitor_id integer NOT NULL REFERENCES monitors(id) ON DELETE CASCADE,
        location varchar(24) NOT NULL,
        status varchar(10) NOT NULL,
        status_code integer NULL,
        response_time integer NULL,
        error text NULL,
        checked_at timestamptz NOT NULL
      )`);
    await db.query(`CREATE INDEX location_checks_monitor_idx ON location_checks (monitor_id, location, checked_at)`);
    await db.query(`CREATE INDEX location_checks_checked_at_idx ON location_checks (checked_at)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE location_checks`);
    await db.query(`DROP TABLE monitor_locations`);
    await db.query(`DROP INDEX monitors_locations_idx`);
    await db.query(`ALTER TABLE monitors DROP COLUMN quorum_min, DROP COLUMN quorum, DROP COLUMN locations`);
  }
}
