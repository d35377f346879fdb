import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Certificate expiry notifications: which thresholds each certificate of each monitor has already announced (0 stands
 * for "expired"), so each is raised once per certificate however many checks, batches or instances see it; and the
 * settings flag that lets a target receive them.
 */
export class CertificateAlerts1764500000000 implements MigrationInterface {
  name = 'CertificateAlerts1764500000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE certificate_alerts (
        monitor_id  integer NOT NULL REFERENCES monitors (id) ON DELETE CASCADE,
        fingerprint varchar(64) NOT NULL,
        threshold   integer NOT NULL,
        expires_at  timestamptz NOT NULL,
        created_at  timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (monitor_id, fingerprint, threshold)
      )`);
    await db.query(`ALTER TABLE notification_settings ADD COLUMN on_certificate_expiry boolean NOT NULL DEFAULT true`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE notification_settings DROP COLUMN on_certificate_expiry`);
    await db.query(`DROP TABLE certificate_alerts`);
  }
}
