import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 32, deeper host figures: an agent speaking protocol 2 also reports its containers, temperatures, per-disk I/O
 * and watched services; the newest set is kept with the agent's latest figures (read by the agent's detail page
 * only, never by lists).
 */
export class AgentInsight1765630000000 implements MigrationInterface {
  name = 'AgentInsight1765630000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE agents ADD COLUMN insight jsonb`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE agents DROP COLUMN insight`);
  }
}
