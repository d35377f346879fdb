import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 30, maintenance windows: the windows (schedule, scope, pages, notices) with the state the sweep keeps (the
 * span applied now, the next one, an early end), the log of spans that happened (the status pages' day marks), the
 * `maintenance` status of monitors and their checks, the hourly count of checks in maintenance (left out of uptime),
 * agents' maintenance flag, and notices addressed to a window in the outbox.
 */
export class Maintenance1765510000000 implements MigrationInterface {
  name = 'Maintenance1765510000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE maintenance (
        id                       serial PRIMARY KEY,
        title                    varchar(150) NOT NULL,
        description              text NOT NULL DEFAULT '',
        strategy                 varchar(8) NOT NULL CHECK (strategy IN ('manual', 'single', 'weekly', 'monthly', 'interval', 'cron')),
        timezone                 varchar(64) NOT NULL DEFAULT 'UTC',
        start_at                 timestamptz,
        end_at                   timestamptz,
        weekdays                 smallint[] NOT NULL DEFAULT '{}',
        -- Days 1-31 and "last".
        days_of_month            jsonb NOT NULL DEFAULT '[]',
        start_time               varchar(5),
        end_time                 varchar(5),
        interval_days            integer,
        cron                     varchar(200),
        duration_minutes         integer,
        enabled                  boolean NOT NULL DEFAULT true,
        notify                   boolean NOT NULL DEFAULT false,
        end_when_healthy_minutes integer,
        all_targets              boolean NOT NULL DEFAULT false,
        -- The sweep's state: the span applied now (null: none), when it was applied, the next span, and the end of
        -- a span ended early (its occurrences are skipped until then).
        applied_start            timestamptz,
        applied_end              timestamptz,
        applied_at               timestamptz,
        next_start               timestamptz,
        next_end                 timestamptz,
        skip_until               timestamptz,
        created_at               timestamptz NOT NULL DEFAULT now(),
        updated_at               timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`CREATE INDEX maintenance_applied ON maintenance (id) WHERE applied_start IS NOT NULL`);
    await db.query(`CREATE INDEX maintenance_next ON maintenance (next_start) WHERE applied_start IS NULL`);
    // What a window covers: monitors, group monitors (with everything inside them) and agents; `all_targets` covers all.
    await db.query(`
      CREATE TABLE maintenance_targets (
        maintenance_id integer NOT NULL REFERENCES maintenance (id) ON DELETE CASCADE,
        kind           varchar(7) NOT NULL CHECK (kind IN ('monitor', 'group', 'agent')),
        monitor_id     integer REFERENCES monitors (id) ON DELETE CASCADE,
        agent_id       integer REFERENCES agents (id) ON DELETE CASCADE,
        CHECK ((kind = 'agent') = (agent_id IS NOT NULL) AND (monitor_id IS NULL) = (agent_id IS NOT NULL))
      )`);
    await db.query(`CREATE UNIQUE INDEX maintenance_targets_monitor ON maintenance_targets (maintenance_id, kind, monitor_id) WHERE monitor_id IS NOT NULL`);
    await db.query(`CREATE UNIQUE INDEX maintenance_targets_agent ON maintenance_targets (maintenance_id, agent_id) WHERE agent_id IS NOT NULL`);
    await db.query(`CREATE INDEX maintenance_targets_monitor_id ON maintenance_targets (monitor_id) WHERE monitor_id IS NOT NULL`);
    await db.query(`CREATE INDEX maintenance_targets_agent_id ON maintenance_targets (agent_id) WHERE agent_id IS NOT NULL`);
    await db.query(`
      CREATE TABLE maintenance_pages (
        maintenance_id integer NOT NULL REFERENCES maintenance (id) ON DELETE CASCADE,
        page_id        integer NOT NULL REFERENCES status_pages (id) ON DELETE CASCADE,
        PRIMARY KEY (maintenance_id, page_id)
      )`);
    await db.query(`CREATE INDEX maintenance_pages_page ON maintenance_pages (page_id)`);
    // Each span as it was applied (end null while it runs): what the status pages mark on their days.
    await db.query(`
      CREATE TABLE maintenance_occurrences (
        maintenance_id integer NOT NULL REFERENCES maintenance (id) ON DELETE CASCADE,
        start_at       timestamptz NOT NULL,
        end_at         timestamptz,
        PRIMARY KEY (maintenance_id, start_at)
      )`);
    await db.query(`
      ALTER TABLE monitors
        DROP CONSTRAINT monitors_status_check,
        ADD CONSTRAINT monitors_status_check CHECK (status IN ('up', 'down', 'pending', 'degraded', 'unreachable', 'maintenance'))`);
    await db.query(`
      ALTER TABLE monitor_checks
        DROP CONSTRAINT monitor_checks_status_check,
        ADD CONSTRAINT monitor_checks_status_check CHECK (status IN ('up', 'down', 'degraded', 'unreachable', 'maintenance'))`);
    // Checks in maintenance are counted here, not in `checks` and `up`: uptime counts them neither way.
    await db.query(`ALTER TABLE monitor_hourly ADD COLUMN maintenance integer NOT NULL DEFAULT 0`);
    await db.query(`ALTER TABLE agents ADD COLUMN maintenance boolean NOT NULL DEFAULT false`);
    await db.query(`ALTER TABLE notification_outbox ALTER COLUMN target_kind TYPE varchar(11)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DELETE FROM notification_outbox WHERE target_kind = 'maintenance'`);
    await db.query(`ALTER TABLE notification_outbox ALTER COLUMN target_kind TYPE varchar(7)`);
    await db.query(`ALTER TABLE agents DROP COLUMN maintenance`);
    await db.query(`ALTER TABLE monitor_hourly DROP COLUMN maintenance`);
    // A check in maintenance was a success or a failure; its error tells which.
    await db.query(`UPDATE monitor_checks SET status = CASE WHEN error IS NULL THEN 'up' ELSE 'down' END WHERE status = 'maintenance'`);
    await db.query(`
      ALTER TABLE monitor_checks
        DROP CONSTRAINT monitor_checks_status_check,
        ADD CONSTRAINT monitor_checks_status_check CHECK (status IN ('up', 'down', 'degraded', 'unreachable'))`);
    await db.query(`UPDATE monitors SET status = 'pending' WHERE status = 'maintenance'`);
    await db.query(`
      ALTER TABLE monitors
        DROP CONSTRAINT monitors_status_check,
        ADD CONSTRAINT monitors_status_check CHECK (status IN ('up', 'down', 'pending', 'degraded', 'unreachable'))`);
    await db.query(`DROP TABLE maintenance_occurrences`);
    await db.query(`DROP TABLE maintenance_pages`);
    await db.query(`DROP TABLE maintenance_targets`);
    await db.query(`DROP TABLE maintenance`);
  }
}
