import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Visitors' subscriptions to a status page (email or webhook, double opt-in) and what is sent to them: one notice per
 * page and event, one delivery row per subscriber, claimed row by row like the notification outbox so a delivery
 * survives a restart and goes out once across instances. Tokens are never stored, only their SHA-256.
 */
export class StatusPageSubscriptions1765530000000 implements MigrationInterface {
  name = 'StatusPageSubscriptions1765530000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE status_page_subscribers (
        id                     serial PRIMARY KEY,
        page_id                integer NOT NULL REFERENCES status_pages (id) ON DELETE CASCADE,
        kind                   varchar(7) NOT NULL CHECK (kind IN ('email', 'webhook')),
        address                varchar(2048) NOT NULL,
        confirm_token_hash     char(64),
        unsubscribe_token_hash char(64) NOT NULL UNIQUE,
        base_url               varchar(2048) NOT NULL,
        confirm_requested_at   timestamptz NOT NULL DEFAULT now(),
        confirmed_at           timestamptz,
        created_at             timestamptz NOT NULL DEFAULT now(),
        UNIQUE (page_id, kind, address)
      )`);
    await db.query(`CREATE UNIQUE INDEX status_page_subscribers_confirm ON status_page_subscribers (confirm_token_hash)`);
    // What each notice is fanned out to: the confirmed subscribers of one page.
    await db.query(`CREATE INDEX status_page_subscribers_confirmed ON status_page_subscribers (page_id) WHERE confirmed_at IS NOT NULL`);
    // Unconfirmed rows are pruned after a few days.
    await db.query(
      `CREATE INDEX status_page_subscribers_unconfirmed ON status_page_subscribers (confirm_requested_at) WHERE confirmed_at IS NULL`,
    );

    await db.query(`
      CREATE TABLE status_page_notices (
        id         bigserial PRIMARY KEY,
        page_id    integer NOT NULL REFERENCES status_pages (id) ON DELETE CASCADE,
        dedup_key  varchar(200) NOT NULL UNIQUE,
        payload    jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`CREATE INDEX status_page_notices_created ON status_page_notices (created_at)`);

    // notice_id NULL: the subscriber's confirmation request.
    await db.query(`
      CREATE TABLE status_page_deliveries (
        id              bigserial PRIMARY KEY,
        subscriber_id   integer NOT NULL REFERENCES status_page_subscribers (id) ON DELETE CASCADE,
        notice_id       bigint REFERENCES status_page_notices (id) ON DELETE CASCADE,
        delivery_id     uuid NOT NULL DEFAULT gen_random_uuid(),
        status          varchar(7) NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed')),
        attempts        integer NOT NULL DEFAULT 0,
        next_attempt_at timestamptz NOT NULL DEFAULT now(),
        locked_until    timestamptz,
        last_error      varchar(300),
        created_at      timestamptz NOT NULL DEFAULT now(),
        sent_at         timestamptz,
        UNIQUE (subscriber_id, notice_id)
      )`);
    await db.query(`CREATE INDEX status_page_deliveries_due ON status_page_deliveries (next_attempt_at, id) WHERE status = 'pending'`);
    await db.query(`CREATE INDEX status_page_deliveries_notice ON status_page_deliveries (notice_id)`);
    await db.query(`CREATE INDEX status_page_deliveries_created ON status_page_deliveries (created_at) WHERE status <> 'pending'`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE status_page_deliveries`);
    await db.query(`DROP TABLE status_page_notices`);
    await db.query(`DROP TABLE status_page_subscribers`);
  }
}
