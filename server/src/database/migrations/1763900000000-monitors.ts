import { MigrationInterface, QueryRunner } from 'typeorm';

export class Monitors1763900000000 implements MigrationInterface {
  name = 'Monitors1763900000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE monitors (
        id                   serial PRIMARY KEY,
        name                 varchar(100) NOT NULL,
        url                  varchar(2048) NOT NULL,
        method               varchar(8) NOT NULL DEFAULT 'GET',
        interval_s           integer NOT NULL DEFAULT 60,
        timeout_s            integer NOT NULL DEFAULT 30,
        expected_status      integer NOT NULL DEFAULT 200,
        headers              jsonb NOT NULL DEFAULT '{}',
        body                 text,
        active               boolean NOT NULL DEFAULT true,
        retries              integer NOT NULL DEFAULT 1,
        retry_interval_s     integer NOT NULL DEFAULT 20,
        status               varchar(8) NOT NULL DEFAULT 'pending' CHECK (status IN ('up', 'down', 'pending')),
        consecutive_failures integer NOT NULL DEFAULT 0,
        response_time        integer,
        last_checked         timestamptz,
        next_check_at        timestamptz,
        created_at           timestamptz NOT NULL DEFAULT now(),
        updated_at           timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`
      CREATE TABLE monitor_checks (
        id            bigserial PRIMARY KEY,
        monitor_id    integer NOT NULL REFERENCES monitors (id) ON DELETE CASCADE,
        status        varchar(4) NOT NULL CHECK (status IN ('up', 'down')),
        status_code   integer,
        response_time integer,
        error         text,
        checked_at    timestamptz NOT NULL
      )`);
    await db.query(`CREATE INDEX monitor_checks_monitor_time ON monitor_checks (monitor_id, checked_at DESC)`);
    await db.query(`CREATE INDEX monitor_checks_time ON monitor_checks (checked_at)`);
    // One row per monitor and hour: uptime and charts beyond the raw window come from here.
    await db.query(`
      CREATE TABLE monitor_hourly (
        monitor_id     integer NOT NULL REFERENCES monitors (id) ON DELETE CASCADE,
        hour           timestamptz NOT NULL,
        checks         integer NOT NULL,
        up             integer NOT NULL,
        response_sum   bigint NOT NULL,
        response_count integer NOT NULL,
        response_max   integer,
        PRIMARY KEY (monitor_id, hour)
      )`);
    await db.query(`CREATE INDEX monitor_hourly_hour ON monitor_hourly (hour)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE monitor_hourly`);
    await db.query(`DROP TABLE monitor_checks`);
    await db.query(`DROP TABLE monitors`);
  }
}
