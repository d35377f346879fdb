import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Monitor types (issue 16): every type's settings as columns of their own (typed, checked and readable in plain SQL;
 * see docs/decisions.md), assertions as a JSON list, the push token and the last peer certificate. Existing monitors
 * become `http` with their behaviour unchanged (`max_redirects` 5, as before; TLS verified).
 */
export class MonitorTypes1764400000000 implements MigrationInterface {
  name = 'MonitorTypes1764400000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE monitors
        ADD COLUMN type varchar(16) NOT NULL DEFAULT 'http'
          CHECK (type IN ('http', 'tcp', 'ping', 'dns', 'tls', 'push', 'websocket', 'grpc', 'postgres', 'mysql', 'redis')),
        ADD COLUMN hostname varchar(253),
        ADD COLUMN port integer CHECK (port BETWEEN 1 AND 65535),
        ADD COLUMN packet_count integer,
        ADD COLUMN dns_record_type varchar(8),
        ADD COLUMN dns_server varchar(260),
        ADD COLUMN message text,
        ADD COLUMN grpc_service varchar(200),
        ADD COLUMN tls boolean,
        ADD COLUMN connection_string text,
        ADD COLUMN query text,
        ADD COLUMN ignore_tls boolean NOT NULL DEFAULT false,
        ADD COLUMN max_redirects integer NOT NULL DEFAULT 5,
        ADD COLUMN cert_expiry_days jsonb NOT NULL DEFAULT '[14]',
        ADD COLUMN assertions jsonb NOT NULL DEFAULT '[]',
        ADD COLUMN push_token varchar(64),
        ADD COLUMN push_awaited_since timestamptz,
        ADD COLUMN certificate jsonb`);
    await db.query(`CREATE UNIQUE INDEX monitors_push_token ON monitors (push_token) WHERE push_token IS NOT NULL`);
    await db.query(`CREATE INDEX monitors_type ON monitors (type)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX monitors_type`);
    await db.query(`DROP INDEX monitors_push_token`);
    await db.query(`
      ALTER TABLE monitors
        DROP COLUMN certificate, DROP COLUMN push_awaited_since, DROP COLUMN push_token, DROP COLUMN assertions,
        DROP COLUMN cert_expiry_days, DROP COLUMN max_redirects, DROP COLUMN ignore_tls, DROP COLUMN query,
        DROP COLUMN connection_string, DROP COLUMN tls, DROP COLUMN grpc_service, DROP COLUMN message,
        DROP COLUMN dns_server, DROP COLUMN dns_record_type, DROP COLUMN packet_count, DROP COLUMN port,
        DROP COLUMN hostname, DROP COLUMN type`);
  }
}
