import { AuditLog } from '../../src/audit/audit-log.service';
import { AuditRepository } from '../../src/audit/audit.repository';
import type { AuthUser } from '../../src/common/decorators';
import { loadConfig } from '../../src/config/config';
import { DomainEvents } from '../../src/events/domain-events.service';
import { IncidentDrafts } from '../../src/incidents/incident-drafts.service';
import { IncidentDraftsRepository } from '../../src/incidents/incident-drafts.repository';
import { IncidentsRepository } from '../../src/incidents/incidents.repository';
import { IncidentsService } from '../../src/incidents/incidents.service';
import { MediumDatabase, mediumDatabase, newMediumService } from './medium';

const REAL = [IncidentsRepository, IncidentDraftsRepository, AuditLog, AuditRepository];
const config = loadConfig({ NODE_ENV: 'test', JWT_SECRET: 'medium-spec-secret-medium-spec-secret' });

describe('incidents on PostgreSQL', () => {
  let db: MediumDatabase;
  let author: AuthUser;
  const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => db.dataSource.query(text, params) as Promise<T[]>;

  beforeAll(async () => {
    db = await mediumDatabase();
    const [user] = await sql<{ id: number }>(
      `INSERT INTO users (username, password_hash, role) VALUES ('alice', 'x', 'admin') RETURNING id`,
    );
    author = { id: user.id, username: 'alice', role: 'admin' };
  });
  afterAll(() => db?.close());

  async function page(slug: string, draftAfterMinutes: number | null, components: Array<{ monitor?: number; agent?: number }>) {
    const [{ id }] = await sql<{ id: number }>(
      `INSERT INTO status_pages (slug, title, draft_after_minutes) VALUES ($1, $1, $2) RETURNING id`,
      [slug, draftAfterMinutes],
    );
    await sql(`INSERT INTO status_page_groups (page_id, position, name) VALUES ($1, 0, '')`, [id]);
    for (const [position, c] of components.entries()) {
      await sql(`INSERT INTO status_page_components (page_id, group_position, position, monitor_id, agent_id) VALUES ($1, 0, $2, $3, $4)`, [
        id,
        position,
        c.monitor ?? null,
        c.agent ?? null,
      ]);
    }
    return id;
  }

  const monitor = async (name: string) =>
    (await sql<{ id: number }>(`INSERT INTO monitors (name, url) VALUES ($1, 'https://example.com/') RETURNING id`, [name]))[0].id;
  const agent = async (name: string) =>
    (
      await sql<{ id: number }>(
        `INSERT INTO agents (name, hostname, status, protocol, interval_s) VALUES ($1, $1, 'active', 'socket', 60) RETURNING id`,
        [name],
      )
    )[0].id;
  /** Sets a status as any writer would (the trigger dates it), then moves that date into the past. */
  async function failSince(table: 'monitors' | 'agents', id: number, status: string, minutesAgo: number) {
    await sql(`UPDATE ${table} SET status = $2 WHERE id = $1`, [id, status]);
    await sql(`UPDATE ${table} SET status_changed_at = now() - make_interval(mins => $2) WHERE id = $1`, [id, minutesAgo]);
  }
  const draftsOf = (pageId: number) =>
    sql<{ id: number; title: string; published: boolean; resolved_at: Date | null; monitors: number[]; agents: number[] }>(
      `SELECT i.id, i.title, i.published, i.resolved_at,
              ARRAY(SELECT monitor_id FROM incident_components c WHERE c.incident_id = i.id AND monitor_id IS NOT NULL ORDER BY 1) AS monitors,
              ARRAY(SELECT agent_id FROM incident_components c WHERE c.incident_id = i.id AND agent_id IS NOT NULL ORDER BY 1) AS agents
       FROM incidents i WHERE i.draft_page_id = $1 ORDER BY i.id`,
      [pageId],
    );

  describe('status_changed_at', () => {
    it('moves when any writer changes the status, and only then', async () => {
      const id = await monitor('clock');
      await sql(`UPDATE monitors SET status_changed_at = now() - interval '1 hour' WHERE id = $1`, [id]);
      await sql(`UPDATE monitors SET name = 'renamed', response_time = 5 WHERE id = $1`, [id]);
      const [kept] = await sql<{ old: boolean }>(
        `SELECT status_changed_at < now() - interval '59 minutes' AS old FROM monitors WHERE id = $1`,
        [id],
      );
      expect(kept.old).toBe(true);
      await sql(`UPDATE monitors SET status = 'down' WHERE id = $1`, [id]);
      const [moved] = await sql<{ fresh: boolean }>(
        `SELECT status_changed_at > now() - interval '1 minute' AS fresh FROM monitors WHERE id = $1`,
        [id],
      );
      expect(moved.fresh).toBe(true);
    });
  });

  describe('the draft sweep (IncidentDrafts)', () => {
    async function instances(count: number) {
      return Promise.all(Array.from({ length: count }, () => newMediumService(IncidentDrafts, db, { real: REAL, config })));
    }

    it('opens one draft across two instances sweeping at once, naming every component down long enough', async () => {
      const [shop, api, fresh] = [await monitor('Shop'), await monitor('API'), await monitor('Fresh')];
      const db1 = await agent('db-1');
      const pageId = await page('race', 5, [{ monitor: shop }, { monitor: api }, { monitor: fresh }, { agent: db1 }]);
      await failSince('monitors', shop, 'down', 10);
      await failSince('monitors', api, 'unreachable', 6);
      await failSince('monitors', fresh, 'down', 2);
      await failSince('agents', db1, 'inactive', 30);
      const [a, b] = await instances(2);
      const opened = await Promise.all([a.sut.sweep(), b.sut.sweep(), a.sut.sweep(), b.sut.sweep()]);
      expect(opened.flat()).toHaveLength(1);
      expect(await draftsOf(pageId)).toEqual([
        {
          id: opened.flat()[0],
          title: '3 components are unavailable',
          published: false,
          resolved_at: null,
          monitors: [shop, api].sort((x, y) => x - y),
          agents: [db1],
        },
      ]);
      // The instance that opened it told the operators, with no page to re-read (a draft is not public).
      const emitted = [a, b].flatMap(({ get }) => get<{ emit: jest.Mock }>(DomainEvents).emit.mock.calls);
      expect(emitted).toEqual([['incident.changed', expect.objectContaining({ action: 'created', pageIds: [] })]]);
      await Promise.all([a.close(), b.close()]);
    });

    it('leaves components an unresolved incident of the page names, paused monitors and pages without the rule', async () => {
      const [named, paused, elsewhere] = [await monitor('Named'), await monitor('Paused'), await monitor('Elsewhere')];
      const pageId = await page('covered', 1, [{ monitor: named }, { monitor: paused }]);
      await page('no-rule', null, [{ monitor: elsewhere }]);
      for (const id of [named, paused, elsewhere]) await failSince('monitors', id, 'down', 60);
      await sql(`UPDATE monitors SET active = false WHERE id = $1`, [paused]);
      const [sut] = await instances(1);
      const services = await newMediumService(IncidentsService, db, { real: REAL, config });
      await services.sut.create({ title: 'Known', impact: 'minor', message: 'On it', monitors: [named], pages: ['covered'] }, author);
      expect(await sut.sut.sweep()).toEqual([]);
      expect(await draftsOf(pageId)).toEqual([]);
      await Promise.all([sut.close(), services.close()]);
    });

    it('opens no second draft for one outage once an operator resolved the first, and one for the next outage', async () => {
      const id = await monitor('Flaky');
      const pageId = await page('outages', 1, [{ monitor: id }]);
      await failSince('monitors', id, 'down', 5);
      const [sut] = await instances(1);
      const services = await newMediumService(IncidentsService, db, { real: REAL, config });
      const [first] = await sut.sut.sweep();
      expect(first).toEqual(expect.any(Number));
      await services.sut.addUpdate(first, { status: 'resolved', message: 'Not worth telling' }, author);
      expect(await sut.sut.sweep()).toEqual([]);
      // Up again, then down again: a new outage, after the first draft (its times moved back as the outage's were).
      await sql(`UPDATE incidents SET created_at = now() - interval '4 minutes' WHERE id = $1`, [first]);
      await failSince('monitors', id, 'up', 3);
      await failSince('monitors', id, 'down', 2);
      expect(await sut.sut.sweep()).toHaveLength(1);
      expect((await draftsOf(pageId)).map((d) => d.title)).toEqual(['Flaky is unavailable', 'Flaky is unavailable']);
      await Promise.all([sut.close(), services.close()]);
    });
  });

  describe('what a page shows (IncidentsService.forPage)', () => {
    it('reads published incidents of the page only, in two statements, history within the range', async () => {
      const [web, hidden] = [await monitor('Web'), await monitor('Hidden')];
      const pageId = await page('public', null, [{ monitor: web }]);
      await page('private', null, []);
      const { sut, close } = await newMediumService(IncidentsService, db, { real: REAL, config });
      const on = (pages: string[], extra: Record<string, unknown> = {}) =>
        sut.create({ title: 'x', impact: 'major', message: 'm', monitors: [web, hidden], pages, ...extra } as never, author);
      const live = await on(['public'], { title: 'Live' });
      const draft = await on(['public'], { title: 'Draft', published: false });
      await on(['private'], { title: 'Elsewhere' });
      const old = await on(['public'], { title: 'Old' });
      const recent = await on(['public'], { title: 'Recent' });
      await sut.addUpdate(old.id, { status: 'resolved', message: 'Done' }, author);
      await sut.addUpdate(recent.id, { status: 'monitoring', message: 'Better' }, author);
      await sut.addUpdate(recent.id, { status: 'resolved', message: '**Fixed**' }, author);
      await sql(`UPDATE incidents SET created_at = now() - interval '40 days', resolved_at = now() - interval '35 days' WHERE id = $1`, [
        old.id,
      ]);

      const query = jest.spyOn(db.dataSource, 'query');
      const shown = await sut.forPage(pageId, 30, new Map([[`m${web}`, 'Web']]));
      expect(query).toHaveBeenCalledTimes(2);
      query.mockRestore();

      expect(shown.active.map((i) => [i.title, i.status, i.components])).toEqual([['Live', 'investigating', ['Web']]]);
      expect(shown.history.map((i) => [i.title, i.status, i.updates.map((u) => u.html)])).toEqual([
        ['Recent', 'resolved', ['<p><strong>Fixed</strong></p>\n', '<p>Better</p>\n', '<p>m</p>\n']],
      ]);
      expect(shown.marks.map((m) => [m.id, m.components])).toEqual(
        expect.arrayContaining([
          [live.id, [`m${web}`]],
          [recent.id, [`m${web}`]],
        ]),
      );
      expect(shown.marks.some((m) => m.id === draft.id || m.id === old.id)).toBe(false);
      await close();
    });
  });
});
