import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A registration token enrols one host (issue 27): the first host that enrols with it is kept on the token, and
 * another host is refused. A token used before keeps the host of its first agent; the other agents it enrolled keep
 * working (socket agents by their own credential, xugou agents as known token and hostname pairs).
 */
export class RegistrationTokenHost1764700000000 implements MigrationInterface {
  name = 'RegistrationTokenHost1764700000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE agent_tokens ADD COLUMN hostname varchar(255)`);
    await db.query(`
      UPDATE agent_tokens t SET hostname = a.hostname
      FROM (SELECT DISTINCT ON (registration_id) registration_id, hostname FROM agents
            WHERE registration_id IS NOT NULL ORDER BY registration_id, id) a
      WHERE a.registration_id = t.id`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`ALTER TABLE agent_tokens DROP COLUMN hostname`);
  }
}
