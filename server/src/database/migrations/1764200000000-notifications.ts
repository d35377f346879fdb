import { MigrationInterface, QueryRunner } from 'typeorm';

export class Notifications1764200000000 implements MigrationInterface {
  name = 'Notifications1764200000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE notification_channels (
        id         serial PRIMARY KEY,
        name       varchar(100) NOT NULL,
        type       varchar(16) NOT NULL,
        config     jsonb NOT NULL,
        enabled    boolean NOT NULL DEFAULT true,
        language   varchar(5) NOT NULL DEFAULT 'zh-CN',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`
      CREATE TABLE notification_settings (
        id                  serial PRIMARY KEY,
        target_type         varchar(16) NOT NULL CHECK (target_type IN ('global-monitor', 'global-agent', 'monitor', 'agent')),
        target_id           integer,
        enabled             boolean NOT NULL DEFAULT false,
        on_down             boolean NOT NULL DEFAULT true,
        on_recovery         boolean NOT NULL DEFAULT true,
        on_offline          boolean NOT NULL DEFAULT true,
        on_cpu_threshold    boolean NOT NULL DEFAULT false,
        cpu_threshold       integer NOT NULL DEFAULT 90,
        on_memory_threshold boolean NOT NULL DEFAULT false,
        memory_threshold    integer NOT NULL DEFAULT 85,
        on_disk_threshold   boolean NOT NULL DEFAULT false,
        disk_threshold      integer NOT NULL DEFAULT 90,
        channels            jsonb NOT NULL DEFAULT '[]',
        override_global     boolean NOT NULL DEFAULT false,
        updated_at          timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`CREATE UNIQUE INDEX notification_settings_target ON notification_settings (target_type, coalesce(target_id, 0))`);
    // Open alert episodes (a monitor down, an agent offline, a metric above its threshold) and threshold streaks.
    await db.query(`
      CREATE TABLE alert_state (
        kind      varchar(7) NOT NULL,
        target_id integer NOT NULL,
        metric    varchar(8) NOT NULL,
        streak    integer NOT NULL DEFAULT 0,
        open      boolean NOT NULL DEFAULT false,
        since     timestamptz,
        PRIMARY KEY (kind, target_id, metric)
      )`);
    // Every notification to send, written in the transaction that records its event; the dispatcher delivers it.
    await db.query(`
      CREATE TABLE notification_outbox (
        id              bigserial PRIMARY KEY,
        dedup_key       varchar(255) NOT NULL UNIQUE,
        channel_id      integer NOT NULL REFERENCES notification_channels (id) ON DELETE CASCADE,
        event           varchar(40) NOT NULL,
        target_kind     varchar(7) NOT NULL,
        target_id       integer,
        target_name     varchar(255) NOT NULL,
        message         jsonb NOT NULL,
        status          varchar(8) NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
        attempts        integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        locked_until    timestamptz,
        last_error      text,
        created_at      timestamptz NOT NULL DEFAULT now(),
        sent_at         timestamptz
      )`);
    await db.query(`CREATE INDEX notification_outbox_due ON notification_outbox (next_attempt_at) WHERE status = 'pending'`);
    await db.query(`CREATE INDEX notification_outbox_target ON notification_outbox (target_kind, target_id, created_at DESC)`);
    await db.query(`
      CREATE TABLE notification_attempts (
        id          bigserial PRIMARY KEY,
        outbox_id   bigint NOT NULL REFERENCES notification_outbox (id) ON DELETE CASCADE,
        attempt     integer NOT NULL,
        ok          boolean NOT NULL,
        http_status integer,
        detail      text,
        duration_ms integer NOT NULL,
        at          timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`CREATE INDEX notification_attempts_outbox ON notification_attempts (outbox_id)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE notification_attempts`);
    await db.query(`DROP TABLE notification_outbox`);
    await db.query(`DROP TABLE alert_state`);
    await db.query(`DROP TABLE notification_settings`);
    await db.query(`DROP TABLE notification_channels`);
  }
}
