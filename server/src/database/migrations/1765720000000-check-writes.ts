import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 34 (disk writes): raw checks lose their index on `checked_at` alone. It served only the retention prune,
 * which now walks each monitor's checks through (monitor_id, checked_at); every index costs each check a WAL record
 * and its entry on disk (about 64 and 22 bytes).
 */
export class CheckWrites1765720000000 implements MigrationInterface {
  name = 'CheckWrites1765720000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX IF EXISTS monitor_checks_time`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`CREATE INDEX IF NOT EXISTS monitor_checks_time ON monitor_checks (checked_at)`);
  }
}
