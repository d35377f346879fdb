import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Whose outbound rules a monitor's checks follow: the role of whoever saved it last (a `user`'s monitors also obey
 * USER_OUTBOUND_DENY). Monitors saved before this column existed keep the rules they were checked under (an admin's);
 * a row written without a scope gets a user's, the narrower one.
 */
export class MonitorOutboundScope1764600000000 implements MigrationInterface {
  name = 'MonitorOutboundScope1764600000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE monitors ADD COLUMN outbound_scope varchar(8) NOT NULL DEFAULT 'admin'
        CONSTRAINT monitors_outbound_scope_check CHECK (outbound_scope IN ('admin', 'user'))`);
    await db.query(`ALTER TABLE monitors ALTER COLUMN outbound_scope SET DEFAULT 'user'`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE monitors DROP COLUMN outbound_scope`);
  }
}
