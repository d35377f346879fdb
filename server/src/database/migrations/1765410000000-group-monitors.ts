import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 29, group monitors: `type` 'group', the group a monitor belongs to (`parent_id`; deleting a group detaches
 * its members, as Uptime Kuma does) and the rule a group's status follows. Members are found by parent, so it is indexed.
 */
export class GroupMonitors1765410000000 implements MigrationInterface {
  name = 'GroupMonitors1765410000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE monitors
        DROP CONSTRAINT monitors_type_check,
        ADD CONSTRAINT monitors_type_check
          CHECK (type IN ('http', 'tcp', 'ping', 'dns', 'tls', 'push', 'websocket', 'grpc', 'postgres', 'mysql', 'redis', 'group')),
        ADD COLUMN parent_id integer REFERENCES monitors (id) ON DELETE SET NULL,
        ADD COLUMN group_rule varchar(8) CHECK (group_rule IN ('any', 'all', 'atLeast')),
        ADD COLUMN group_min integer CHECK (group_min BETWEEN 1 AND 1000),
        ADD CONSTRAINT monitors_parent_not_self CHECK (parent_id <> id)`);
    await db.query(`CREATE INDEX monitors_parent_id ON monitors (parent_id) WHERE parent_id IS NOT NULL`);
  }

  async down(db: QueryRunner): Promise<void> {
    // Groups have no equivalent before: they go, and their members stay as monitors of their own.
    await db.query(`DROP INDEX monitors_parent_id`);
    await db.query(`ALTER TABLE monitors DROP COLUMN parent_id, DROP COLUMN group_rule, DROP COLUMN group_min`);
    await db.query(`DELETE FROM monitors WHERE type = 'group'`);
    await db.query(`
      ALTER TABLE monitors
        DROP CONSTRAINT monitors_type_check,
        ADD CONSTRAINT monitors_type_check
          CHECK (type IN ('http', 'tcp', 'ping', 'dns', 'tls', 'push', 'websocket', 'grpc', 'postgres', 'mysql', 'redis'))`);
  }
}
