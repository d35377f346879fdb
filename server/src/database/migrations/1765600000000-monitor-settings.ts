import { MigrationInterface, QueryRunner } from 'typeorm';

/** The first types, the only ones the database knew before their list moved into the type specs. */
const FIRST_TYPES = "'http', 'tcp', 'ping', 'dns', 'tls', 'push', 'websocket', 'grpc', 'postgres', 'mysql', 'redis', 'group'";

/**
 * Issue 33, one type spec: the types added since keep their settings in one JSON object validated by their spec
 * (proto's type-specs), so a new type needs no schema change. The type list leaves the database (the specs decide
 * it; a name stays a short lower-case word). The first types' rows keep their columns; their `settings` is `{}`.
 */
export class MonitorSettings1765600000000 implements MigrationInterface {
  name = 'MonitorSettings1765600000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE monitors
        DROP CONSTRAINT monitors_type_check,
        ADD CONSTRAINT monitors_type_check CHECK (type ~ '^[a-z][a-z0-9-]{0,31}$'),
        ADD COLUMN settings jsonb NOT NULL DEFAULT '{}' CHECK (jsonb_typeof(settings) = 'object')`);
  }

  async down(db: QueryRunner): Promise<void> {
    // The added types have no columns before: their monitors go, as group monitors did in their own migration's down.
    await db.query(`DELETE FROM monitors WHERE type NOT IN (${FIRST_TYPES})`);
    await db.query(`
      ALTER TABLE monitors
        DROP COLUMN settings,
        DROP CONSTRAINT monitors_type_check,
        ADD CONSTRAINT monitors_type_check CHECK (type IN (${FIRST_TYPES}))`);
  }
}
