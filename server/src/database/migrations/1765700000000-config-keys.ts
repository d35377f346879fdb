import { MigrationInterface, QueryRunner } from 'typeorm';

/** The tables whose rows a configuration document names by key (status pages by their slug). */
const KEYED = [
  { table: 'monitors', from: 'name', fallback: 'monitor' },
  { table: 'notification_channels', from: 'name', fallback: 'channel' },
  { table: 'maintenance', from: 'title', fallback: 'maintenance' },
];

/**
 * Issue 34, requirement 4: monitors, channels and maintenance windows get a stable `key`, so a document applied
 * again matches the same rows (ids and history kept). Backfilled from the name as `keyFromName` makes it; a name
 * taken twice, or a key that ends in digits, gets `-<id>`, so every backfilled key is unique.
 */
export class ConfigKeys1765700000000 implements MigrationInterface {
  name = 'ConfigKeys1765700000000';

  async up(db: QueryRunner): Promise<void> {
    // A row inserted without a key (every writer but an apply) gets the first free one made from its name: one rule for all.
    await db.query(`
      CREATE FUNCTION config_key_default() RETURNS trigger LANGUAGE plpgsql AS $$
      DECLARE
        base text := COALESCE(NULLIF(trim(BOTH '-' FROM left(regexp_replace(lower(to_jsonb(NEW) ->> TG_ARGV[0]), '[^a-z0-9]+', '-', 'g'), 80)), ''), TG_ARGV[1]);
        candidate text := base;
        n integer := 1;
        taken boolean;
      BEGIN
        -- Two writers giving the same name at once would both find the same key free: the second waits for the first.
        PERFORM pg_advisory_xact_lock(hashtext(TG_TABLE_NAME || ':' || base));
        LOOP
          EXECUTE format('SELECT EXISTS (SELECT 1 FROM %I WHERE key = $1)', TG_TABLE_NAME) INTO taken USING candidate;
          EXIT WHEN NOT taken;
          n := n + 1;
          candidate := base || '-' || n;
        END LOOP;
        NEW.key := candidate;
        RETURN NEW;
      END $$`);
    for (const { table, from, fallback } of KEYED) {
      await db.query(`ALTER TABLE ${table} ADD COLUMN key varchar(100) NULL`);
      await db.query(`
        WITH slugs AS (
          SELECT id, COALESCE(NULLIF(trim(BOTH '-' FROM left(regexp_replace(lower(${from}), '[^a-z0-9]+', '-', 'g'), 80)), ''), '${fallback}') AS slug
          FROM ${table}
        ), ranked AS (
          SELECT id, slug, row_number() OVER (PARTITION BY slug ORDER BY id) AS rn FROM slugs
        )
        UPDATE ${table} t
        SET key = CASE WHEN ranked.rn = 1 AND ranked.slug !~ '-[0-9]+$' THEN ranked.slug ELSE ranked.slug || '-' || t.id END
        FROM ranked WHERE ranked.id = t.id`);
      await db.query(`ALTER TABLE ${table} ALTER COLUMN key SET NOT NULL`);
      await db.query(`ALTER TABLE ${table} ADD CONSTRAINT ${table}_key_unique UNIQUE (key)`);
      await db.query(`CREATE TRIGGER ${table}_key_default BEFORE INSERT ON ${table} FOR EACH ROW WHEN (NEW.key IS NULL)
        EXECUTE FUNCTION config_key_default('${from}', '${fallback}')`);
    }
  }

  async down(db: QueryRunner): Promise<void> {
    for (const { table } of [...KEYED].reverse()) {
      await db.query(`DROP TRIGGER ${table}_key_default ON ${table}`);
      await db.query(`ALTER TABLE ${table} DROP COLUMN key`);
    }
    await db.query(`DROP FUNCTION config_key_default()`);
  }
}
