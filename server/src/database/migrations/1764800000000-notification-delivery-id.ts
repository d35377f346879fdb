import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Every outbox row carries a random delivery id, sent with each attempt (`X-Vigil-Delivery`, the webhook's
 * `delivery_id`): deliveries are at least once, and a receiver drops a repeat by it. Random rather than the row id, so
 * it never repeats across installations or after a restore, when row ids are handed out again.
 */
export class NotificationDeliveryId1764800000000 implements MigrationInterface {
  name = 'NotificationDeliveryId1764800000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE notification_outbox ADD COLUMN delivery_id uuid NOT NULL DEFAULT gen_random_uuid()`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE notification_outbox DROP COLUMN delivery_id`);
  }
}
