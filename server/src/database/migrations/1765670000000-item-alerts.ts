import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 32, container and service alerts: one episode per container or systemd unit, so `alert_state` and `alerts`
 * are keyed by the item too ('' for every whole-host or monitor metric), and the agent settings gain their switches.
 */
export class ItemAlerts1765670000000 implements MigrationInterface {
  name = 'ItemAlerts1765670000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE notification_settings
        ADD COLUMN on_container_down boolean NOT NULL DEFAULT false,
        ADD COLUMN on_container_unhealthy boolean NOT NULL DEFAULT false,
        ADD COLUMN on_service_failed boolean NOT NULL DEFAULT false`);
    await db.query(`ALTER TABLE alert_state ALTER COLUMN metric TYPE varchar(24), ADD COLUMN item varchar(255) NOT NULL DEFAULT ''`);
    await db.query(`ALTER TABLE alert_state DROP CONSTRAINT alert_state_pkey, ADD PRIMARY KEY (kind, target_id, metric, item)`);
    await db.query(`ALTER TABLE alerts ALTER COLUMN metric TYPE varchar(24), ADD COLUMN item varchar(255) NOT NULL DEFAULT ''`);
    await db.query(`
      ALTER TABLE alerts DROP CONSTRAINT alerts_target_kind_target_id_metric_episode_key,
        ADD CONSTRAINT alerts_episode_key UNIQUE (target_kind, target_id, metric, item, episode)`);
  }

  async down(db: QueryRunner): Promise<void> {
    const itemMetrics = `metric IN ('containerDown', 'containerUnhealthy', 'serviceFailed')`;
    await db.query(`DELETE FROM alerts WHERE ${itemMetrics}`);
    await db.query(`DELETE FROM alert_state WHERE ${itemMetrics}`);
    await db.query(`
      ALTER TABLE alerts DROP CONSTRAINT alerts_episode_key,
        ADD CONSTRAINT alerts_target_kind_target_id_metric_episode_key UNIQUE (target_kind, target_id, metric, episode)`);
    await db.query(`ALTER TABLE alerts DROP COLUMN item, ALTER COLUMN metric TYPE varchar(16)`);
    await db.query(`ALTER TABLE alert_state DROP CONSTRAINT alert_state_pkey, ADD PRIMARY KEY (kind, target_id, metric)`);
    await db.query(`ALTER TABLE alert_state DROP COLUMN item, ALTER COLUMN metric TYPE varchar(16)`);
    await db.query(`
      ALTER TABLE notification_settings
        DROP COLUMN on_container_down, DROP COLUMN on_container_unhealthy, DROP COLUMN on_service_failed`);
  }
}
