import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The audit log: one row per change (or sign-in), written in the transaction of the change. The actor is kept by id
 * and by name without a foreign key, so entries outlive the user (and the API key) that made them. `changes` holds
 * `{ field: { before, after } }` of the changed fields only, secrets masked or left out.
 */
export class AuditLog1765300000000 implements MigrationInterface {
  name = 'AuditLog1765300000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE audit_log (
        id             bigserial PRIMARY KEY,
        at             timestamptz NOT NULL DEFAULT now(),
        actor_user_id  integer,
        actor_username varchar(64),
        actor_key_id   integer,
        ip             varchar(64),
        action         varchar(64) NOT NULL,
        target_type    varchar(32),
        target_id      varchar(64),
        target_name    varchar(200),
        changes        jsonb
      )`);
    // Newest first, alone or within one filter: each index ends with (at, id) so a filtered page reads in order.
    await db.query(`CREATE INDEX audit_log_at_idx ON audit_log (at DESC, id DESC)`);
    await db.query(`CREATE INDEX audit_log_actor_idx ON audit_log (actor_user_id, at DESC, id DESC)`);
    await db.query(`CREATE INDEX audit_log_target_idx ON audit_log (target_type, target_id, at DESC, id DESC)`);
    await db.query(`CREATE INDEX audit_log_action_idx ON audit_log (action, at DESC, id DESC)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE audit_log`);
  }
}
