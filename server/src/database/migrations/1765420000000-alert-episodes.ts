import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 29, the alerting side: one `alerts` row per episode (opened and closed in the transaction that records the
 * transition), the outbox rows linked to it, per-channel storm grouping windows, reminders and escalation in the
 * notification settings, and mute per monitor and agent.
 */
export class AlertEpisodes1765420000000 implements MigrationInterface {
  name = 'AlertEpisodes1765420000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE alerts (
        id                 serial PRIMARY KEY,
        target_kind        varchar(7) NOT NULL,
        target_id          integer NOT NULL,
        target_name        varchar(255) NOT NULL,
        metric             varchar(10) NOT NULL,
        episode            integer NOT NULL,
        opened_at          timestamptz NOT NULL,
        closed_at          timestamptz,
        acknowledged_at    timestamptz,
        acknowledged_by    integer REFERENCES users (id) ON DELETE SET NULL,
        acknowledged_name  varchar(100),
        ack_note           text,
        escalation_step    integer NOT NULL DEFAULT 0,
        reminders_sent     integer NOT NULL DEFAULT 0,
        last_notified_at   timestamptz,
        -- When the reminder and escalation sweep looks at it next (null: at the next sweep).
        due_at             timestamptz,
        UNIQUE (target_kind, target_id, metric, episode)
      )`);
    await db.query(`CREATE INDEX alerts_open ON alerts (opened_at) WHERE closed_at IS NULL`);
    await db.query(`CREATE INDEX alerts_recent ON alerts (opened_at DESC)`);
    await db.query(`CREATE INDEX alerts_due ON alerts (due_at) WHERE closed_at IS NULL AND acknowledged_at IS NULL`);
    // Episodes already open keep going: they get their row, so their recovery closes it.
    await db.query(`
      INSERT INTO alerts (target_kind, target_id, target_name, metric, episode, opened_at)
      SELECT s.kind, s.target_id, coalesce(m.name, a.name, '?'), s.metric, s.episode, coalesce(s.since, now())
      FROM alert_state s
      LEFT JOIN monitors m ON s.kind = 'monitor' AND m.id = s.target_id
      LEFT JOIN agents a ON s.kind = 'agent' AND a.id = s.target_id
      WHERE s.open AND s.notified`);
    await db.query(`ALTER TABLE notification_outbox ADD COLUMN alert_id integer REFERENCES alerts (id) ON DELETE SET NULL`);
    await db.query(`CREATE INDEX notification_outbox_alert ON notification_outbox (alert_id) WHERE alert_id IS NOT NULL`);
    await db.query(`
      ALTER TABLE notification_channels
        ADD COLUMN group_wait_seconds integer NOT NULL DEFAULT 10,
        ADD COLUMN group_interval_seconds integer NOT NULL DEFAULT 60,
        ADD COLUMN group_sent_at timestamptz`);
    await db.query(`
      ALTER TABLE notification_settings
        ADD COLUMN on_degraded boolean NOT NULL DEFAULT false,
        ADD COLUMN reminder_minutes integer,
        ADD COLUMN escalation jsonb NOT NULL DEFAULT '[]'`);
    await db.query(`ALTER TABLE monitors ADD COLUMN muted_until timestamptz`);
    await db.query(`ALTER TABLE agents ADD COLUMN muted_until timestamptz`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE agents DROP COLUMN muted_until`);
    await db.query(`ALTER TABLE monitors DROP COLUMN muted_until`);
    await db.query(`ALTER TABLE notification_settings DROP COLUMN escalation, DROP COLUMN reminder_minutes, DROP COLUMN on_degraded`);
    await db.query(`ALTER TABLE notification_channels DROP COLUMN group_sent_at, DROP COLUMN group_interval_seconds, DROP COLUMN group_wait_seconds`);
    await db.query(`ALTER TABLE notification_outbox DROP COLUMN alert_id`);
    await db.query(`DROP TABLE alerts`);
  }
}
