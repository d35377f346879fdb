import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 32, requirement 9: a monitor may name the agent of the host it runs on, so its down alert and detail page
 * carry that host's figures. Deleting the agent only forgets the link.
 */
export class MonitorHostAgent1765680000000 implements MigrationInterface {
  name = 'MonitorHostAgent1765680000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE monitors ADD COLUMN host_agent_id integer NULL REFERENCES agents (id) ON DELETE SET NULL`);
    // ON DELETE SET NULL finds the monitors of a deleted agent through it.
    await db.query(`CREATE INDEX monitors_host_agent_idx ON monitors (host_agent_id) WHERE host_agent_id IS NOT NULL`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP INDEX monitors_host_agent_idx`);
    await db.query(`ALTER TABLE monitors DROP COLUMN host_agent_id`);
  }
}
