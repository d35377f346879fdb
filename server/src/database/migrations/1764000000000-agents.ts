import { MigrationInterface, QueryRunner } from 'typeorm';

export class Agents1764000000000 implements MigrationInterface {
  name = 'Agents1764000000000';

  async up(db: QueryRunner): Promise<void> {
    // Registration tokens: only a SHA-256 of each is kept (they are 192-bit random, so a slow hash adds nothing).
    await db.query(`
      CREATE TABLE agent_tokens (
        id          serial PRIMARY KEY,
        token_hash  char(64) NOT NULL UNIQUE,
        expires_at  timestamptz NOT NULL,
        created_by  integer REFERENCES users (id) ON DELETE SET NULL,
        created_at  timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`
      CREATE TABLE agents (
        id              serial PRIMARY KEY,
        name            varchar(100) NOT NULL,
        hostname        varchar(255) NOT NULL,
        ip_addresses    jsonb NOT NULL DEFAULT '[]',
        os              varchar(255),
        version         varchar(255),
        platform        varchar(255),
        kernel          varchar(255),
        arch            varchar(255),
        cpu_model       varchar(255),
        cpu_cores       integer,
        status          varchar(10) NOT NULL DEFAULT 'connecting' CHECK (status IN ('active', 'inactive', 'connecting')),
        protocol        varchar(6) NOT NULL CHECK (protocol IN ('socket', 'http')),
        interval_s      integer NOT NULL DEFAULT 60,
        -- Socket agents: SHA-256 of their own credential. HTTP (xugou) agents: of the registration token they use.
        credential_hash char(64) UNIQUE,
        http_key        char(64),
        registration_id integer REFERENCES agent_tokens (id) ON DELETE SET NULL,
        cpu_usage       double precision,
        memory_total    bigint,
        memory_used     bigint,
        swap_total      bigint,
        swap_used       bigint,
        disk_total      bigint,
        disk_used       bigint,
        network_rx      double precision,
        network_tx      double precision,
        load1           double precision,
        load5           double precision,
        load15          double precision,
        host_uptime     bigint,
        disks           jsonb NOT NULL DEFAULT '[]',
        interfaces      jsonb NOT NULL DEFAULT '[]',
        -- HTTP agents send cumulative counters; the previous ones give the rates.
        counters        jsonb,
        last_report_at  timestamptz,
        last_seen_at    timestamptz NOT NULL DEFAULT now(),
        connection_id   varchar(64),
        disconnected_at timestamptz,
        created_at      timestamptz NOT NULL DEFAULT now(),
        updated_at      timestamptz NOT NULL DEFAULT now(),
        UNIQUE (http_key, hostname)
      )`);
    await db.query(`CREATE INDEX agents_status ON agents (status)`);
    // Averages per bucket as sums and sample counts, so reports of one bucket can be added in any order.
    await db.query(`
      CREATE TABLE agent_metrics (
        agent_id     integer NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
        tier         integer NOT NULL,
        bucket       timestamptz NOT NULL,
        samples      integer NOT NULL,
        cpu_sum      double precision NOT NULL,
        cpu_max      double precision NOT NULL,
        memory_sum   double precision NOT NULL,
        memory_n     integer NOT NULL,
        disk_sum     double precision NOT NULL,
        disk_n       integer NOT NULL,
        rx_sum       double precision NOT NULL,
        tx_sum       double precision NOT NULL,
        load_sum     double precision NOT NULL,
        load_n       integer NOT NULL,
        PRIMARY KEY (agent_id, tier, bucket)
      )`);
    await db.query(`CREATE INDEX agent_metrics_tier_bucket ON agent_metrics (tier, bucket)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE agent_metrics`);
    await db.query(`DROP TABLE agents`);
    await db.query(`DROP TABLE agent_tokens`);
  }
}
