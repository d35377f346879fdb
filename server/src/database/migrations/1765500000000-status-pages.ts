import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Status pages as rows. The spec's singleton (`settings.status_page`, `status_monitors`, `status_agents`) becomes the
 * page with slug `default`, its selections one group; the old tables go.
 */
export class StatusPages1765500000000 implements MigrationInterface {
  name = 'StatusPages1765500000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE status_pages (
        id                  serial PRIMARY KEY,
        slug                varchar(64) NOT NULL UNIQUE,
        title               varchar(100) NOT NULL DEFAULT '',
        description         varchar(1000) NOT NULL DEFAULT '',
        logo_url            text,
        footer              varchar(2000) NOT NULL DEFAULT '',
        custom_css          text,
        theme               varchar(5) NOT NULL DEFAULT 'auto' CHECK (theme IN ('light', 'dark', 'auto')),
        history_days        smallint NOT NULL DEFAULT 90 CHECK (history_days IN (30, 60, 90)),
        show_agent_details  boolean NOT NULL DEFAULT false,
        show_resources      boolean NOT NULL DEFAULT true,
        domain              varchar(253) UNIQUE,
        password_hash       text,
        draft_after_minutes integer,
        subscribe_email_channel_id integer REFERENCES notification_channels (id) ON DELETE SET NULL,
        subscribe_webhooks  boolean NOT NULL DEFAULT false,
        created_at          timestamptz NOT NULL DEFAULT now(),
        updated_at          timestamptz NOT NULL DEFAULT now()
      )`);
    await db.query(`
      CREATE TABLE status_page_groups (
        page_id   integer NOT NULL REFERENCES status_pages (id) ON DELETE CASCADE,
        position  smallint NOT NULL,
        name      varchar(100) NOT NULL DEFAULT '',
        collapsed boolean NOT NULL DEFAULT false,
        PRIMARY KEY (page_id, position)
      )`);
    // One row per component; a deleted monitor or agent leaves every page by itself.
    await db.query(`
      CREATE TABLE status_page_components (
        page_id        integer NOT NULL REFERENCES status_pages (id) ON DELETE CASCADE,
        group_position smallint NOT NULL,
        position       integer NOT NULL,
        monitor_id     integer REFERENCES monitors (id) ON DELETE CASCADE,
        agent_id       integer REFERENCES agents (id) ON DELETE CASCADE,
        CHECK ((monitor_id IS NULL) <> (agent_id IS NULL)),
        PRIMARY KEY (page_id, group_position, position)
      )`);
    await db.query(`CREATE UNIQUE INDEX status_page_components_monitor ON status_page_components (page_id, monitor_id) WHERE monitor_id IS NOT NULL`);
    await db.query(`CREATE UNIQUE INDEX status_page_components_agent ON status_page_components (page_id, agent_id) WHERE agent_id IS NOT NULL`);
    await db.query(`CREATE INDEX status_page_components_monitor_id ON status_page_components (monitor_id)`);
    await db.query(`CREATE INDEX status_page_components_agent_id ON status_page_components (agent_id)`);

    await db.query(`
      INSERT INTO status_pages (slug, title, description, logo_url, custom_css, show_agent_details, show_resources)
      SELECT 'default',
             COALESCE(s.value->>'title', ''),
             COALESCE(s.value->>'description', ''),
             s.value->>'logoUrl',
             s.value->>'customCss',
             true,
             COALESCE((s.value->>'showResources')::boolean, true)
      FROM (SELECT 1) one LEFT JOIN settings s ON s.key = 'status_page'`);
    await db.query(`INSERT INTO status_page_groups (page_id, position, name) SELECT id, 0, '' FROM status_pages WHERE slug = 'default'`);
    await db.query(`
      INSERT INTO status_page_components (page_id, group_position, position, monitor_id)
      SELECT p.id, 0, row_number() OVER (ORDER BY m.monitor_id) - 1, m.monitor_id
      FROM status_monitors m CROSS JOIN status_pages p WHERE p.slug = 'default'`);
    await db.query(`
      INSERT INTO status_page_components (page_id, group_position, position, agent_id)
      SELECT p.id, 0, (SELECT count(*) FROM status_monitors) + row_number() OVER (ORDER BY a.agent_id) - 1, a.agent_id
      FROM status_agents a CROSS JOIN status_pages p WHERE p.slug = 'default'`);
    await db.query(`DELETE FROM settings WHERE key = 'status_page'`);
    await db.query(`DROP TABLE status_monitors`);
    await db.query(`DROP TABLE status_agents`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`CREATE TABLE status_monitors (monitor_id integer PRIMARY KEY REFERENCES monitors (id) ON DELETE CASCADE)`);
    await db.query(`CREATE TABLE status_agents (agent_id integer PRIMARY KEY REFERENCES agents (id) ON DELETE CASCADE)`);
    await db.query(`
      INSERT INTO status_monitors (monitor_id)
      SELECT DISTINCT c.monitor_id FROM status_page_components c JOIN status_pages p ON p.id = c.page_id
      WHERE p.slug = 'default' AND c.monitor_id IS NOT NULL`);
    await db.query(`
      INSERT INTO status_agents (agent_id)
      SELECT DISTINCT c.agent_id FROM status_page_components c JOIN status_pages p ON p.id = c.page_id
      WHERE p.slug = 'default' AND c.agent_id IS NOT NULL`);
    await db.query(`
      INSERT INTO settings (key, value)
      SELECT 'status_page', jsonb_build_object('title', title, 'description', description, 'logoUrl', logo_url,
             'customCss', custom_css, 'showResources', show_resources)
      FROM status_pages WHERE slug = 'default'`);
    await db.query(`DROP TABLE status_page_components`);
    await db.query(`DROP TABLE status_page_groups`);
    await db.query(`DROP TABLE status_pages`);
  }
}
