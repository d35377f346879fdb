import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 32, host alert rules: load (per core, %), temperature (°C, any sensor), disk I/O busy (%, any disk) and
 * bandwidth (KB/s, any interface, rx or tx) thresholds beside CPU, memory and disk; their metric names need wider
 * `metric` columns in the episode tables.
 */
export class HostAlerts1765650000000 implements MigrationInterface {
  name = 'HostAlerts1765650000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE notification_settings
        ADD COLUMN on_load_threshold boolean NOT NULL DEFAULT false,
        ADD COLUMN load_threshold integer NOT NULL DEFAULT 100,
        ADD COLUMN on_temperature_threshold boolean NOT NULL DEFAULT false,
        ADD COLUMN temperature_threshold integer NOT NULL DEFAULT 80,
        ADD COLUMN on_disk_io_threshold boolean NOT NULL DEFAULT false,
        ADD COLUMN disk_io_threshold integer NOT NULL DEFAULT 90,
        ADD COLUMN on_bandwidth_threshold boolean NOT NULL DEFAULT false,
        ADD COLUMN bandwidth_threshold integer NOT NULL DEFAULT 102400`);
    await db.query(`ALTER TABLE alert_state ALTER COLUMN metric TYPE varchar(16)`);
    await db.query(`ALTER TABLE alerts ALTER COLUMN metric TYPE varchar(16)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DELETE FROM alert_state WHERE metric IN ('load', 'temperature', 'diskIo', 'bandwidth')`);
    await db.query(`DELETE FROM alerts WHERE metric IN ('load', 'temperature', 'diskIo', 'bandwidth')`);
    await db.query(`ALTER TABLE alerts ALTER COLUMN metric TYPE varchar(10)`);
    await db.query(`ALTER TABLE alert_state ALTER COLUMN metric TYPE varchar(8)`);
    await db.query(`
      ALTER TABLE notification_settings
        DROP COLUMN on_load_threshold, DROP COLUMN load_threshold,
        DROP COLUMN on_temperature_threshold, DROP COLUMN temperature_threshold,
        DROP COLUMN on_disk_io_threshold, DROP COLUMN disk_io_threshold,
        DROP COLUMN on_bandwidth_threshold, DROP COLUMN bandwidth_threshold`);
  }
}
