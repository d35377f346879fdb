import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Issue 30, incidents: what operators tell a status page's visitors, as a timeline of updates, on chosen pages and
 * naming chosen monitors and agents. Also when each monitor's and agent's status last changed (`status_changed_at`),
 * which incident drafts are opened from.
 */
export class Incidents1765520000000 implements MigrationInterface {
  name = 'Incidents1765520000000';

  async up(db: QueryRunner): Promise<void> {
    // `draft_page_id`: the page whose draft rule opened it (null: written by an operator).
    await db.query(`
      CREATE TABLE incidents (
        id            serial PRIMARY KEY,
        title         varchar(200) NOT NULL,
        impact        varchar(8) NOT NULL CHECK (impact IN ('none', 'minor', 'major', 'critical')),
        published     boolean NOT NULL DEFAULT true,
        created_by    integer REFERENCES users (id) ON DELETE SET NULL,
        draft_page_id integer REFERENCES status_pages (id) ON DELETE SET NULL,
        created_at    timestamptz NOT NULL DEFAULT now(),
        updated_at    timestamptz NOT NULL DEFAULT now(),
        resolved_at   timestamptz
      )`);
    await db.query(`CREATE INDEX incidents_recent ON incidents (created_at DESC, id DESC)`);
    await db.query(`CREATE INDEX incidents_unresolved ON incidents (id) WHERE resolved_at IS NULL`);
    await db.query(`
      CREATE TABLE incident_updates (
        id          serial PRIMARY KEY,
        incident_id integer NOT NULL REFERENCES incidents (id) ON DELETE CASCADE,
        status      varchar(13) NOT NULL CHECK (status IN ('investigating', 'identified', 'monitoring', 'resolved')),
        message     text NOT NULL,
        html        text NOT NULL,
        author_id   integer REFERENCES users (id) ON DELETE SET NULL,
        created_at  timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`CREATE INDEX incident_updates_timeline ON incident_updates (incident_id, created_at DESC, id DESC)`);
    await db.query(`
      CREATE TABLE incident_pages (
        incident_id integer NOT NULL REFERENCES incidents (id) ON DELETE CASCADE,
        page_id     integer NOT NULL REFERENCES status_pages (id) ON DELETE CASCADE,
        PRIMARY KEY (incident_id, page_id)
      )`);
    await db.query(`CREATE INDEX incident_pages_page ON incident_pages (page_id, incident_id)`);
    // A deleted monitor or agent leaves every incident by itself.
    await db.query(`
      CREATE TABLE incident_components (
        incident_id integer NOT NULL REFERENCES incidents (id) ON DELETE CASCADE,
        monitor_id  integer REFERENCES monitors (id) ON DELETE CASCADE,
        agent_id    integer REFERENCES agents (id) ON DELETE CASCADE,
        CHECK ((monitor_id IS NULL) <> (agent_id IS NULL))
      )`);
    await db.query(`CREATE UNIQUE INDEX incident_components_monitor ON incident_components (incident_id, monitor_id) WHERE monitor_id IS NOT NULL`);
    await db.query(`CREATE UNIQUE INDEX incident_components_agent ON incident_components (incident_id, agent_id) WHERE agent_id IS NOT NULL`);
    await db.query(`CREATE INDEX incident_components_monitor_id ON incident_components (monitor_id) WHERE monitor_id IS NOT NULL`);
    await db.query(`CREATE INDEX incident_components_agent_id ON incident_components (agent_id) WHERE agent_id IS NOT NULL`);

    // Every writer of a status (checks, group derivation, pause, the agents' sweep, maintenance) moves the time with
    // it, without knowing of it: one rule in the database. Unknown for rows that exist now, so counted from here
    // (a draft never opens early). The comparison sits in the body, not in a WHEN clause, so the status column's
    // type can still be altered by later migrations.
    await db.query(`ALTER TABLE monitors ADD COLUMN status_changed_at timestamptz NOT NULL DEFAULT now()`);
    await db.query(`ALTER TABLE agents ADD COLUMN status_changed_at timestamptz NOT NULL DEFAULT now()`);
    await db.query(`
      CREATE FUNCTION vigil_status_changed_at() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.status IS DISTINCT FROM OLD.status THEN
          NEW.status_changed_at := now();
        END IF;
        RETURN NEW;
      END
      $$`);
    await db.query(`CREATE TRIGGER monitors_status_changed_at BEFORE UPDATE ON monitors FOR EACH ROW EXECUTE FUNCTION vigil_status_changed_at()`);
    await db.query(`CREATE TRIGGER agents_status_changed_at BEFORE UPDATE ON agents FOR EACH ROW EXECUTE FUNCTION vigil_status_changed_at()`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TRIGGER agents_status_changed_at ON agents`);
    await db.query(`DROP TRIGGER monitors_status_changed_at ON monitors`);
    await db.query(`DROP FUNCTION vigil_status_changed_at()`);
    await db.query(`ALTER TABLE agents DROP COLUMN status_changed_at`);
    await db.query(`ALTER TABLE monitors DROP COLUMN status_changed_at`);
    await db.query(`DROP TABLE incident_components`);
    await db.query(`DROP TABLE incident_pages`);
    await db.query(`DROP TABLE incident_updates`);
    await db.query(`DROP TABLE incidents`);
  }
}
