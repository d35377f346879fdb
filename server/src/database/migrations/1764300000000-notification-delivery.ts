import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Delivery history outlives its channel (deleting a channel keeps what was sent through it, by name), and alert
 * episodes are numbered and remember whether their opening alert was sent, so a recovery follows only a sent alert
 * and every notification has a stable deduplication key.
 */
export class NotificationDelivery1764300000000 implements MigrationInterface {
  name = 'NotificationDelivery1764300000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE notification_outbox ADD COLUMN channel_name varchar(100) NOT NULL DEFAULT ''`);
    await db.query(`ALTER TABLE notification_outbox ADD COLUMN channel_type varchar(16) NOT NULL DEFAULT ''`);
    await db.query(`
      UPDATE notification_outbox o SET channel_name = c.name, channel_type = c.type
      FROM notification_channels c WHERE c.id = o.channel_id`);
    await db.query(`ALTER TABLE notification_outbox ALTER COLUMN channel_id DROP NOT NULL`);
    await db.query(`ALTER TABLE notification_outbox DROP CONSTRAINT notification_outbox_channel_id_fkey`);
    await db.query(`
      ALTER TABLE notification_outbox ADD CONSTRAINT notification_outbox_channel_id_fkey
      FOREIGN KEY (channel_id) REFERENCES notification_channels (id) ON DELETE SET NULL`);
    await db.query(`CREATE INDEX notification_outbox_created ON notification_outbox (created_at DESC, id DESC)`);
    await db.query(`ALTER TABLE alert_state ADD COLUMN episode integer NOT NULL DEFAULT 0`);
    await db.query(`ALTER TABLE alert_state ADD COLUMN notified boolean NOT NULL DEFAULT false`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE alert_state DROP COLUMN notified`);
    await db.query(`ALTER TABLE alert_state DROP COLUMN episode`);
    await db.query(`DROP INDEX notification_outbox_created`);
    await db.query(`DELETE FROM notification_outbox WHERE channel_id IS NULL`);
    await db.query(`ALTER TABLE notification_outbox DROP CONSTRAINT notification_outbox_channel_id_fkey`);
    await db.query(`
      ALTER TABLE notification_outbox ADD CONSTRAINT notification_outbox_channel_id_fkey
      FOREIGN KEY (channel_id) REFERENCES notification_channels (id) ON DELETE CASCADE`);
    await db.query(`ALTER TABLE notification_outbox ALTER COLUMN channel_id SET NOT NULL`);
    await db.query(`ALTER TABLE notification_outbox DROP COLUMN channel_type`);
    await db.query(`ALTER TABLE notification_outbox DROP COLUMN channel_name`);
  }
}
