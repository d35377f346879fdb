import { Injectable } from '@nestjs/common';
import type { PageComponentRef, PageHistoryDays, PageTheme, StatusPageGroup, StatusPageSummary } from '@vigil/proto';
import { DataSource, EntityManager } from 'typeorm';
import { execute, queryRow, queryRows, type Sql } from '../database/rows';

/** A `status_pages` row as the driver reads it. */
export interface PageRow {
  id: number;
  slug: string;
  title: string;
  description: string;
  logo_url: string | null;
  footer: string;
  custom_css: string | null;
  theme: PageTheme;
  history_days: PageHistoryDays;
  show_agent_details: boolean;
  show_resources: boolean;
  domain: string | null;
  password_hash: string | null;
  draft_after_minutes: number | null;
  subscribe_email_channel_id: number | null;
  subscribe_webhooks: boolean;
  created_at: Date;
  updated_at: Date;
}

/** The page's own columns as saved; `password_hash` undefined keeps the stored one. */
export type PageFields = Omit<PageRow, 'id' | 'created_at' | 'updated_at' | 'password_hash'> & { password_hash?: string | null };

/** What every instance keeps of every page to route and guard requests: small, read in one query. */
export interface PageKey {
  id: number;
  slug: string;
  domain: string | null;
  password_hash: string | null;
}

const FIELDS = [
  'slug',
  'title',
  'description',
  'logo_url',
  'footer',
  'custom_css',
  'theme',
  'history_days',
  'show_agent_details',
  'show_resources',
  'domain',
  'draft_after_minutes',
  'subscribe_email_channel_id',
  'subscribe_webhooks',
] as const satisfies ReadonlyArray<keyof PageFields>;

/** Status pages, their groups and components: the only code that writes them (the spec's `/status` config aside). */
@Injectable()
export class StatusPagesRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Every page with its component and confirmed subscriber counts, the default page first, then by slug. */
  async list(): Promise<StatusPageSummary[]> {
    const rows = await queryRows<{
      slug: string;
      title: string;
      domain: string | null;
      has_password: boolean;
      components: string;
      subscribers: string;
      updated_at: Date;
    }>(
      this.dataSource,
      `SELECT p.slug, p.title, p.domain, p.password_hash IS NOT NULL AS has_password, p.updated_at,
              (SELECT count(*) FROM status_page_components c WHERE c.page_id = p.id) AS components,
              (SELECT count(*) FROM status_page_subscribers s WHERE s.page_id = p.id AND s.confirmed_at IS NOT NULL) AS subscribers
       FROM status_pages p ORDER BY p.slug <> 'default', p.slug`,
    );
    return rows.map((row) => ({
      slug: row.slug,
      title: row.title,
      domain: row.domain,
      hasPassword: row.has_password,
      components: Number(row.components),
      subscribers: Number(row.subscribers),
      updated_at: new Date(row.updated_at).toISOString(),
    }));
  }

  async find(slug: string, db: Sql = this.dataSource, lock = false): Promise<PageRow | null> {
    return queryRow<PageRow>(db, `SELECT * FROM status_pages WHERE slug = $1${lock ? ' FOR UPDATE' : ''}`, [slug]);
  }

  async findById(id: number): Promise<PageRow | null> {
    return queryRow<PageRow>(this.dataSource, `SELECT * FROM status_pages WHERE id = $1`, [id]);
  }

  /** Slug, domain and password of every page. */
  async keys(): Promise<PageKey[]> {
    return queryRows<PageKey>(this.dataSource, `SELECT id, slug, domain, password_hash FROM status_pages`);
  }

  /** Which pages show each monitor and agent (`m12`, `a3`): who to tell when one changes. */
  async memberships(): Promise<Array<{ page_id: number; monitor_id: number | null; agent_id: number | null }>> {
    return queryRows(this.dataSource, `SELECT page_id, monitor_id, agent_id FROM status_page_components`);
  }

  /** The names and folding of a page's groups, in order (their items come with the components). */
  async outline(pageId: number): Promise<Array<{ position: number; name: string; collapsed: boolean }>> {
    return queryRows(this.dataSource, `SELECT position, name, collapsed FROM status_page_groups WHERE page_id = $1 ORDER BY position`, [
      pageId,
    ]);
  }

  /** The groups of a page with their items, in order; `named`: each item with its name (what an editor shows). */
  async groups(pageId: number, db: Sql = this.dataSource, named = false): Promise<StatusPageGroup[]> {
    const [groups, items] = await Promise.all([
      queryRows<{ position: number; name: string; collapsed: boolean }>(
        db,
        `SELECT position, name, collapsed FROM status_page_groups WHERE page_id = $1 ORDER BY position`,
        [pageId],
      ),
      queryRows<{ group_position: number; monitor_id: number | null; agent_id: number | null; name: string | null }>(
        db,
        named
          ? `SELECT c.group_position, c.monitor_id, c.agent_id, COALESCE(m.name, a.name) AS name FROM status_page_components c
             LEFT JOIN monitors m ON m.id = c.monitor_id LEFT JOIN agents a ON a.id = c.agent_id
             WHERE c.page_id = $1 ORDER BY c.group_position, c.position`
          : `SELECT group_position, monitor_id, agent_id, NULL AS name FROM status_page_components WHERE page_id = $1
             ORDER BY group_position, position`,
        [pageId],
      ),
    ]);
    const byPosition = new Map(groups.map((g) => [g.position, { name: g.name, collapsed: g.collapsed, items: [] as PageComponentRef[] }]));
    for (const item of items) {
      byPosition.get(item.group_position)?.items.push({
        ...(item.monitor_id !== null ? { type: 'monitor' as const, id: item.monitor_id } : { type: 'agent' as const, id: item.agent_id! }),
        ...(item.name !== null ? { name: item.name } : {}),
      });
    }
    return [...byPosition.values()];
  }

  /** How many of these ids name existing monitors and agents (all of them, or some are unknown). */
  async existing(monitorIds: number[], agentIds: number[], db: Sql): Promise<number> {
    const row = await queryRow<{ found: string }>(
      db,
      `SELECT (SELECT count(*) FROM monitors WHERE id = ANY($1::int[])) + (SELECT count(*) FROM agents WHERE id = ANY($2::int[])) AS found`,
      [monitorIds, agentIds],
    );
    return Number(row?.found ?? 0);
  }

  async isSmtpChannel(id: number, db: Sql): Promise<boolean> {
    return (await queryRow(db, `SELECT 1 FROM notification_channels WHERE id = $1 AND type = 'smtp'`, [id])) !== null;
  }

  async insert(fields: PageFields, db: EntityManager): Promise<number> {
    const row = await queryRow<{ id: number }>(
      db,
      `INSERT INTO status_pages (${FIELDS.join(', ')}, password_hash)
       VALUES (${FIELDS.map((_, i) => `$${i + 1}`).join(', ')}, $${FIELDS.length + 1}) RETURNING id`,
      [...FIELDS.map((field) => fields[field]), fields.password_hash ?? null],
    );
    return row!.id;
  }

  async update(id: number, fields: PageFields, db: EntityManager): Promise<void> {
    const sets = FIELDS.map((field, i) => `${field} = $${i + 2}`);
    const values: unknown[] = [id, ...FIELDS.map((field) => fields[field])];
    if (fields.password_hash !== undefined) {
      values.push(fields.password_hash);
      sets.push(`password_hash = $${values.length}`);
    }
    await execute(db, `UPDATE status_pages SET ${sets.join(', ')}, updated_at = now() WHERE id = $1`, values);
  }

  /** Replaces the page's groups and components; ids are known to exist (checked in the same transaction). */
  async replaceGroups(pageId: number, groups: StatusPageGroup[], db: EntityManager): Promise<void> {
    await execute(db, `DELETE FROM status_page_components WHERE page_id = $1`, [pageId]);
    await execute(db, `DELETE FROM status_page_groups WHERE page_id = $1`, [pageId]);
    if (!groups.length) return;
    await execute(
      db,
      `INSERT INTO status_page_groups (page_id, position, name, collapsed)
       SELECT $1, position - 1, name, collapsed FROM unnest($2::text[], $3::boolean[]) WITH ORDINALITY AS g(name, collapsed, position)`,
      [pageId, groups.map((g) => g.name), groups.map((g) => g.collapsed)],
    );
    const group: number[] = [];
    const position: number[] = [];
    const monitors: Array<number | null> = [];
    const agents: Array<number | null> = [];
    groups.forEach((g, index) =>
      g.items.forEach((item, at) => {
        group.push(index);
        position.push(at);
        monitors.push(item.type === 'monitor' ? item.id : null);
        agents.push(item.type === 'agent' ? item.id : null);
      }),
    );
    // One statement for the whole page, however many components (unnest takes arrays of any length).
    await execute(
      db,
      `INSERT INTO status_page_components (page_id, group_position, position, monitor_id, agent_id)
       SELECT $1, * FROM unnest($2::smallint[], $3::int[], $4::int[], $5::int[])`,
      [pageId, group, position, monitors, agents],
    );
  }

  async remove(id: number, db: EntityManager): Promise<void> {
    await execute(db, `DELETE FROM status_pages WHERE id = $1`, [id]);
  }
}
