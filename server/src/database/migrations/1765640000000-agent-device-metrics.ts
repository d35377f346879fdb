import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 32, per-device history: each disk's I/O, each interface's traffic and each temperature sensor, in the same
 * three tiers as `agent_metrics` (sums and counts per bucket, so reports of one bucket add in any order). `a`, `b`
 * and `c` are read/write/busy for disks, rx/tx for interfaces, mean/highest degrees for sensors.
 */
export class AgentDeviceMetrics1765640000000 implements MigrationInterface {
  name = 'AgentDeviceMetrics1765640000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE agent_device_metrics (
        agent_id integer NOT NULL REFERENCES agents (id) ON DELETE CASCADE,
        tier     integer NOT NULL,
        kind     varchar(4) NOT NULL CHECK (kind IN ('disk', 'nic', 'temp')),
        name     varchar(128) NOT NULL,
        bucket   timestamptz NOT NULL,
        samples  integer NOT NULL,
        a_sum    double precision NOT NULL,
        b_sum    double precision NOT NULL,
        c_sum    double precision NOT NULL,
        c_max    double precision NOT NULL,
        PRIMARY KEY (agent_id, tier, kind, name, bucket)
      )`);
    await db.query(`CREATE INDEX agent_device_metrics_tier_bucket ON agent_device_metrics (tier, bucket)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE agent_device_metrics`);
  }
}
