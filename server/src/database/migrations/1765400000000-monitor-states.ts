import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 29, the state side: dependencies of monitors and agents (jsonb lists of `{type, id}`, small and read with the
 * row under its lock), the `degraded` and `unreachable` statuses in monitors, checks and the transition feed, the
 * flapping flag with the recent change times it is decided from, and the hourly counts that report the new statuses
 * apart.
 */
export class MonitorStates1765400000000 implements MigrationInterface {
  name = 'MonitorStates1765400000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE monitors
        ADD COLUMN depends_on jsonb NOT NULL DEFAULT '[]',
        ADD COLUMN degraded_after_ms integer,
        ADD COLUMN flapping boolean NOT NULL DEFAULT false,
        ADD COLUMN recent_changes timestamptz[] NOT NULL DEFAULT '{}',
        ALTER COLUMN status TYPE varchar(12),
        DROP CONSTRAINT monitors_status_check,
        ADD CONSTRAINT monitors_status_check CHECK (status IN ('up', 'down', 'pending', 'degraded', 'unreachable'))`);
    await db.query(`
      ALTER TABLE monitor_checks
        ALTER COLUMN status TYPE varchar(12),
        DROP CONSTRAINT monitor_checks_status_check,
        ADD CONSTRAINT monitor_checks_status_check CHECK (status IN ('up', 'down', 'degraded', 'unreachable'))`);
    await db.query(`
      ALTER TABLE monitor_hourly
        ADD COLUMN degraded integer NOT NULL DEFAULT 0,
        ADD COLUMN unreachable integer NOT NULL DEFAULT 0`);
    await db.query(`
      ALTER TABLE agents
        ADD COLUMN depends_on jsonb NOT NULL DEFAULT '[]',
        ADD COLUMN unreachable boolean NOT NULL DEFAULT false`);
    await db.query(`ALTER TABLE status_changes ALTER COLUMN previous TYPE varchar(12), ALTER COLUMN status TYPE varchar(12)`);
  }

  async down(db: QueryRunner): Promise<void> {
    // The new statuses have no older equivalent: a degraded monitor was up, an unreachable one down.
    await db.query(`UPDATE status_changes SET previous = 'up' WHERE previous = 'degraded'`);
    await db.query(`UPDATE status_changes SET previous = 'down' WHERE previous = 'unreachable'`);
    await db.query(`UPDATE status_changes SET status = 'up' WHERE status = 'degraded'`);
    await db.query(`UPDATE status_changes SET status = 'down' WHERE status = 'unreachable'`);
    await db.query(`ALTER TABLE status_changes ALTER COLUMN previous TYPE varchar(10), ALTER COLUMN status TYPE varchar(10)`);
    await db.query(`ALTER TABLE agents DROP COLUMN unreachable, DROP COLUMN depends_on`);
    await db.query(`ALTER TABLE monitor_hourly DROP COLUMN unreachable, DROP COLUMN degraded`);
    await db.query(`UPDATE monitor_checks SET status = 'up' WHERE status = 'degraded'`);
    await db.query(`UPDATE monitor_checks SET status = 'down' WHERE status = 'unreachable'`);
    await db.query(`
      ALTER TABLE monitor_checks
        DROP CONSTRAINT monitor_checks_status_check,
        ALTER COLUMN status TYPE varchar(4),
        ADD CONSTRAINT monitor_checks_status_check CHECK (status IN ('up', 'down'))`);
    await db.query(`UPDATE monitors SET status = 'up' WHERE status = 'degraded'`);
    await db.query(`UPDATE monitors SET status = 'down' WHERE status = 'unreachable'`);
    await db.query(`
      ALTER TABLE monitors
        DROP CONSTRAINT monitors_status_check,
        ALTER COLUMN status TYPE varchar(8),
        ADD CONSTRAINT monitors_status_check CHECK (status IN ('up', 'down', 'pending')),
        DROP COLUMN recent_changes,
        DROP COLUMN flapping,
        DROP COLUMN degraded_after_ms,
        DROP COLUMN depends_on`);
  }
}
