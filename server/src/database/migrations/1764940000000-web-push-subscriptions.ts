import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Browsers that receive Web Push notifications: one row per push endpoint (a browser profile on a device), owned by the
 * user who enabled it there; a browser that subscribes again under another user moves to that user. The VAPID keys
 * live in `settings` (`web_push_vapid`), generated once, so every instance signs with the same key.
 */
export class WebPushSubscriptions1764940000000 implements MigrationInterface {
  name = 'WebPushSubscriptions1764940000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE web_push_subscriptions (
        id         serial PRIMARY KEY,
        user_id    integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
        endpoint   text NOT NULL UNIQUE,
        p256dh     text NOT NULL,
        auth       text NOT NULL,
        user_agent varchar(64),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`CREATE INDEX web_push_subscriptions_user_idx ON web_push_subscriptions (user_id)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE web_push_subscriptions`);
  }
}
