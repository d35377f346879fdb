import request from 'supertest';
import { io, Socket } from 'socket.io-client';
import type {
  ClientToServerEvents,
  IncidentChangedEvent,
  IncidentDto,
  IncidentsResponse,
  PageChangedEvent,
  ServerToClientEvents,
  StatusPageDataResponse,
} from '@vigil/proto';
import { createUser, registerFirstAdmin, Session } from '../factories/users';
import { freePort } from '../support/ports';
import { startTestApp, TestApp } from '../support/test-app';
import { sleep, waitFor } from '../support/wait';

type BrowserSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** Issue 30, requirements 4 and 5: incidents with a timeline, on status pages, live, and drafts Vigil opens. */
describe('incidents', () => {
  let app: TestApp;
  let admin: Session;
  let member: Session;
  let viewer: Session;
  let web: number;
  let api: number;
  const sockets: BrowserSocket[] = [];

  async function monitor(name: string, port: number): Promise<number> {
    const { body } = await request(app.url)
      .post('/api/monitors')
      .set(admin.auth)
      .send({ name, type: 'tcp', hostname: '127.0.0.1', port, interval: 3600, retries: 0 })
      .expect(201);
    return body.monitor.id;
  }

  async function page(slug: string, monitors: number[], extra: Record<string, unknown> = {}): Promise<void> {
    const items = monitors.map((id) => ({ type: 'monitor', id }));
    await request(app.url)
      .post('/api/status-pages')
      .set(admin.auth)
      .send({ slug, title: slug, groups: [{ name: 'All', collapsed: false, items }], ...extra })
      .expect(201);
  }

  const create = (body: Record<string, unknown>, session = member) => request(app.url).post('/api/incidents').set(session.auth).send(body);
  const list = async (query: string): Promise<IncidentsResponse> =>
    (await request(app.url).get(`/api/incidents?${query}`).set(member.auth).expect(200)).body;
  const pageData = async (slug: string) =>
    ((await request(app.url).get(`/api/status-pages/${slug}/data`).expect(200)).body as StatusPageDataResponse).data;

  async function socket(token?: string): Promise<BrowserSocket> {
    const s: BrowserSocket = io(app.url, { auth: token ? { token } : {}, transports: ['websocket'], reconnection: false, forceNew: true });
    sockets.push(s);
    await new Promise<void>((resolve, reject) => (s.once('connect', () => resolve()), s.once('connect_error', reject)));
    return s;
  }

  async function join(s: BrowserSocket, room: string): Promise<void> {
    expect(await s.timeout(5000).emitWithAck('subscribe', room as never)).toEqual({ ok: true });
  }

  beforeAll(async () => {
    app = await startTestApp({ env: { ALERT_MINUTE_MS: '100', INCIDENT_DRAFT_SWEEP_MS: '100' } });
    admin = await registerFirstAdmin(app.url);
    member = await createUser(app.url, admin);
    viewer = await createUser(app.url, admin, 'viewer');
    // Loopback ports nobody listens on: both monitors go down at their first check.
    web = await monitor('Web', await freePort());
    api = await monitor('API', await freePort());
    await page('shop', [web]);
  });
  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await app?.destroy();
  });

  describe('writing one', () => {
    let incident: IncidentDto;

    it('creates an incident with its first update, written by the caller', async () => {
      const { body } = await create({
        title: ' Checkout fails ',
        impact: 'major',
        message: 'Payments **fail** since 10:00.',
        monitors: [web, api, web],
        pages: ['shop', 'default'],
      }).expect(201);
      incident = body.incident;
      expect(body.message).toBe('Incident created');
      expect(incident).toMatchObject({
        title: 'Checkout fails',
        impact: 'major',
        status: 'investigating',
        published: true,
        monitors: [web, api].sort((a, b) => a - b),
        agents: [],
        pages: ['default', 'shop'],
        resolved_at: null,
      });
      expect(incident.updates).toEqual([
        {
          id: expect.any(Number),
          status: 'investigating',
          message: 'Payments **fail** since 10:00.',
          html: '<p>Payments <strong>fail</strong> since 10:00.</p>\n',
          author: member.user.username,
          created_at: expect.any(String),
        },
      ]);
      expect((await request(app.url).get(`/api/incidents/${incident.id}`).set(viewer.auth).expect(200)).body.incident).toEqual(incident);
    });

    it('keeps a timeline whose newest status is the incident’s, rendering Markdown safely', async () => {
      const post = (status: string, message: string) =>
        request(app.url).post(`/api/incidents/${incident.id}/updates`).set(admin.auth).send({ status, message }).expect(201);
      const identified = (
        await post('identified', 'Cause: <script>alert(1)</script> see [details](javascript:alert(1)) and <https://example.com/pm>')
      ).body;
      expect(identified.message).toBe('Incident update posted');
      const html = identified.incident.updates[1].html as string;
      expect(html).not.toMatch(/<script|href="javascript/i);
      expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
      expect(html).toContain('[details](javascript:alert(1))');
      expect(html).toContain('<a href="https://example.com/pm" target="_blank" rel="nofollow noopener noreferrer">');
      expect(identified.incident).toMatchObject({ status: 'identified', resolved_at: null });
      expect(identified.incident.updates[1].author).toBe(admin.user.username);

      const resolved = (await post('resolved', 'Fixed.')).body.incident as IncidentDto;
      expect(resolved.status).toBe('resolved');
      expect(resolved.resolved_at).toEqual(expect.any(String));
      expect((await list('state=resolved')).incidents.map((i) => i.id)).toContain(incident.id);
      expect((await list('state=active')).incidents.map((i) => i.id)).not.toContain(incident.id);

      const reopened = (await post('monitoring', 'It came back; watching.')).body.incident as IncidentDto;
      expect(reopened).toMatchObject({ status: 'monitoring', resolved_at: null });
      expect(reopened.updates.map((u) => u.status)).toEqual(['investigating', 'identified', 'resolved', 'monitoring']);
      expect((await list('state=active')).incidents.map((i) => i.id)).toContain(incident.id);
    });

    it('saves its own fields, keeping lists it is not given, and audits each change', async () => {
      const { body } = await request(app.url)
        .put(`/api/incidents/${incident.id}`)
        .set(member.auth)
        .send({ title: 'Checkout fails for some', impact: 'minor', pages: ['shop'] })
        .expect(200);
      expect(body.message).toBe('Incident saved');
      expect(body.incident).toMatchObject({ title: 'Checkout fails for some', impact: 'minor', pages: ['shop'], status: 'monitoring' });
      expect(body.incident.monitors).toEqual([web, api].sort((a, b) => a - b));
      const { body: audit } = await request(app.url)
        .get(`/api/audit?target_type=incident&target_id=${incident.id}`)
        .set(admin.auth)
        .expect(200);
      expect(audit.entries.map((e: { action: string }) => e.action)).toEqual([
        'incident.updated',
        'incident.update_posted',
        'incident.update_posted',
        'incident.update_posted',
        'incident.created',
      ]);
      expect(audit.entries[0].changes).toMatchObject({
        impact: { before: 'major', after: 'minor' },
        pages: { before: ['default', 'shop'], after: ['shop'] },
      });
    });

    it('lists newest first, by state and by a part of the title, paged', async () => {
      await create({ title: 'Later draft', impact: 'none', message: 'Internal', published: false }).expect(201);
      const all = await list('state=all&pageSize=1');
      expect(all).toMatchObject({ success: true, page: 1, pageSize: 1, total: 2 });
      expect(all.incidents.map((i) => i.title)).toEqual(['Later draft']);
      expect((await list('state=draft')).incidents.map((i) => i.title)).toEqual(['Later draft']);
      expect((await list('search=SOME')).incidents.map((i) => i.title)).toEqual(['Checkout fails for some']);
      expect((await list('search=%25')).total).toBe(0);
    });

    it('shows on its pages as visitors see them: no author, only the page’s components, drafts never', async () => {
      const data = await pageData('shop');
      expect(data.incidents.map((i) => i.title)).toEqual(['Checkout fails for some']);
      const [shown] = data.incidents;
      expect(shown.components).toEqual(['Web']);
      expect(shown.updates[0]).toEqual({ status: 'monitoring', html: '<p>It came back; watching.</p>\n', created_at: expect.any(String) });
      expect(JSON.stringify(data)).not.toContain(member.user.username);
      expect(data.marks).toContainEqual(expect.objectContaining({ kind: 'incident', id: incident.id, components: [`m${web}`] }));
      expect((await pageData('default')).incidents).toEqual([]);
    });
  });

  describe('bad input', () => {
    const VALID = { title: 'Down', impact: 'minor', message: 'Looking' };

    it.each<[string, Record<string, unknown>, string]>([
      ['no title', { title: '' }, 'incidents.titleInvalid'],
      ['an unknown impact', { impact: 'apocalyptic' }, 'incidents.impactInvalid'],
      ['an unknown status', { status: 'done' }, 'incidents.statusInvalid'],
      ['a message of 20,001 characters', { message: 'x'.repeat(20_001) }, 'incidents.messageInvalid'],
      ['an unknown monitor', { monitors: [999_999] }, 'incidents.monitorsUnknown'],
      ['an unknown agent', { agents: [999_999] }, 'incidents.agentsUnknown'],
      ['an unknown page', { pages: ['nowhere'] }, 'incidents.pagesUnknown'],
      ['a malformed page slug', { pages: ['../shop'] }, 'incidents.pagesInvalid'],
      ['10,001 monitors', { monitors: Array.from({ length: 10_001 }, (_, i) => i + 1) }, 'incidents.monitorsInvalid'],
    ])('refuses %s with a 400 naming it, storing nothing', async (_, change, code) => {
      const before = (await list('state=all')).total;
      const { body } = await create({ ...VALID, ...change }).expect(400);
      expect(body).toMatchObject({ success: false, code });
      expect((await list('state=all')).total).toBe(before);
    });

    it('takes 10,000 monitor ids in one body (none of them unknown)', async () => {
      const { body } = await create({ ...VALID, monitors: [...Array.from({ length: 9_999 }, () => web), api] }).expect(201);
      expect(body.incident.monitors).toEqual([web, api].sort((a, b) => a - b));
      await request(app.url).delete(`/api/incidents/${body.incident.id}`).set(member.auth).expect(200);
    });

    it('answers 404 for an incident that does not exist, and refuses a viewer’s writes', async () => {
      await request(app.url).get('/api/incidents/999999').set(member.auth).expect(404);
      await request(app.url).post('/api/incidents/999999/updates').set(member.auth).send({ status: 'resolved', message: 'x' }).expect(404);
      const { body } = await create(VALID, viewer).expect(403);
      expect(body.code).toBe('auth.readOnly');
      await request(app.url).get('/api/incidents?state=open').set(member.auth).expect(400);
      await request(app.url).get('/api/incidents').expect(401);
    });
  });

  describe('live', () => {
    it('tells operators in the incidents room of every change, and a page’s visitors when its data changes', async () => {
      const operator = await socket(member.token);
      await join(operator, 'incidents');
      const visitor = await socket();
      await join(visitor, 'status:shop');
      const changes: IncidentChangedEvent[] = [];
      const pages: PageChangedEvent[] = [];
      operator.on('incident.changed', (event) => changes.push(event));
      visitor.on('status.page_changed', (event) => pages.push(event));

      const draft = (await create({ title: 'Quiet', impact: 'minor', message: 'x', pages: ['shop'], published: false }).expect(201)).body
        .incident as IncidentDto;
      await waitFor(
        async () => changes,
        (c) => c.some((e) => e.id === draft.id && e.action === 'created'),
      );
      await sleep(300);
      expect(pages).toEqual([]);

      await request(app.url)
        .put(`/api/incidents/${draft.id}`)
        .set(member.auth)
        .send({ title: 'Public now', impact: 'minor', published: true })
        .expect(200);
      await waitFor(
        async () => pages,
        (p) => p.length > 0,
      );
      expect(pages[0]).toEqual({ slug: 'shop' });
      expect((await pageData('shop')).incidents.map((i) => i.title)).toContain('Public now');

      await request(app.url).delete(`/api/incidents/${draft.id}`).set(member.auth).expect(200);
      await waitFor(
        async () => changes,
        (c) => c.some((e) => e.id === draft.id && e.action === 'deleted'),
      );
      expect(changes.filter((e) => e.id === draft.id).map((e) => e.action)).toEqual(['created', 'updated', 'deleted']);
      await waitFor(
        async () => pages,
        (p) => p.length > 1,
      );
      await request(app.url).get(`/api/incidents/${draft.id}`).set(member.auth).expect(404);
      expect((await pageData('shop')).incidents.map((i) => i.title)).not.toContain('Public now');
    });
  });

  describe('drafts (requirement 5)', () => {
    it('opens one unpublished incident for a component down longer than the page allows, for operators to publish', async () => {
      const db = await monitor('Database', await freePort());
      await page('ops', [db], { draftAfterMinutes: 1 });
      const drafts = await waitFor(
        () => list('state=draft&search=Database'),
        (found) => found.total > 0,
      );
      const [draft] = drafts.incidents;
      expect(draft).toMatchObject({ title: 'Database is unavailable', impact: 'major', published: false, monitors: [db], pages: ['ops'] });
      expect(draft.updates).toEqual([expect.objectContaining({ status: 'investigating', author: null })]);
      expect(draft.updates[0].message).toMatch(/^Unavailable since \d{4}-\d\d-\d\d \d\d:\d\d UTC: ` Database `$/);
      // Many sweeps later, still one; and never on the page until an operator publishes it.
      await sleep(1000);
      expect((await list('state=draft&search=Database')).total).toBe(1);
      expect((await pageData('ops')).incidents).toEqual([]);
      await request(app.url)
        .put(`/api/incidents/${draft.id}`)
        .set(member.auth)
        .send({ title: 'Database outage', impact: 'critical', published: true })
        .expect(200);
      expect((await pageData('ops')).incidents.map((i) => [i.title, i.components])).toEqual([['Database outage', ['Database']]]);
    });
  });
});
