import { Client } from 'pg';
import request from 'supertest';
import { io, Socket } from 'socket.io-client';
import {
  STATUS_PAGE_LIMITS,
  type ClientToServerEvents,
  type PageItemEvent,
  type ServerToClientEvents,
  type StatusPageData,
} from '@vigil/proto';
import { createUser, registerFirstAdmin, Session } from '../factories/users';
import { startTargetServer, TargetServer } from '../support/target-server';
import { startTestApp, TestApp, USERS_REACH_LOOPBACK } from '../support/test-app';
import { waitFor } from '../support/wait';

type BrowserSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

const COMPONENTS = 10_000;

/** Status pages at scale and live: 10,000 components in one save, pushes to a page's room, feeds and badges. */
describe('status pages at scale, live, in feeds and badges', () => {
  let app: TestApp;
  let admin: Session;
  let member: Session;
  let target: TargetServer;
  let db: Client;
  const sockets: BrowserSocket[] = [];

  beforeAll(async () => {
    [app, target] = await Promise.all([startTestApp({ databaseMode: 'url', env: USERS_REACH_LOOPBACK }), startTargetServer()]);
    db = new Client({ connectionString: app.database.url! });
    await db.connect();
    admin = await registerFirstAdmin(app.url);
    member = await createUser(app.url, admin);
  });
  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await db?.end();
    await app?.destroy();
    await target?.close();
  });

  const api = () => request(app.url);
  /** An SVG answer's text (supertest keeps image bodies as buffers). */
  const svg = (path: string) =>
    api()
      .get(path)
      .buffer(true)
      .parse((res, done) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => done(null, text));
      });

  async function monitor(name: string, path = name): Promise<number> {
    const { body } = await api()
      .post('/api/monitors')
      .set(member.auth)
      .send({ name, url: `${target.url}/${path}`, retries: 0, interval: 3600 })
      .expect(201);
    // The check on creation runs in the background: wait for it to be stored, so that a later push or uptime figure
    // cannot be this first result landing late.
    await waitFor(
      async () => (await api().get(`/api/monitors/${body.monitor.id}`).set(member.auth).expect(200)).body.monitor.status,
      (status) => status !== 'pending',
    );
    return body.monitor.id;
  }

  it(`accepts ${COMPONENTS.toLocaleString('en')} components in one save and inlines only what fits the budget`, async () => {
    const { rows } = await db.query<{ id: number }>(
      `INSERT INTO monitors (name, url, interval_s, timeout_s, retries, active)
       SELECT 'bulk ' || n, 'http://192.0.2.1/' || n, 3600, 10, 0, false FROM generate_series(1, $1::int) n RETURNING id`,
      [COMPONENTS],
    );
    const ids = rows.map((row) => row.id);
    const first = { name: 'First', collapsed: false, items: ids.slice(0, 150).map((id) => ({ type: 'monitor', id })) };
    const rest = { name: 'Everything else', collapsed: false, items: ids.slice(150).map((id) => ({ type: 'monitor', id })) };
    const small = { name: 'Small', collapsed: false, items: [] };
    await api().post('/api/status-pages').set(member.auth).send({ slug: 'big', title: 'Big', groups: [] }).expect(201);
    const saved = await api()
      .put('/api/status-pages/big')
      .set(member.auth)
      .send({ slug: 'big', title: 'Big', groups: [first, rest, small] })
      .expect(200);
    expect(saved.body.page.groups.map((g: { items: unknown[] }) => g.items.length)).toEqual([150, COMPONENTS - 150, 0]);

    const answer = await api().get('/api/status-pages/big/data').expect(200);
    const data: StatusPageData = answer.body.data;
    expect(data.groups.map((g) => [g.size, g.items?.length ?? null, g.collapsed])).toEqual([
      [150, 150, false],
      // Past the inline budget: a summary only, read on demand.
      [COMPONENTS - 150, null, true],
      [0, 0, false],
    ]);
    // Paused monitors say nothing about health: summarised apart from the banner.
    expect(data.overall).toBe('operational');
    expect(answer.text.length).toBeLessThan(300_000);
    const page = await api().get(`/api/status-pages/big/groups/1?offset=9000&limit=${STATUS_PAGE_LIMITS.groupPageMax}`).expect(200);
    expect(page.body.total).toBe(COMPONENTS - 150);
    expect(page.body.items).toHaveLength(STATUS_PAGE_LIMITS.groupPageMax);
    expect(page.body.items[0]).toMatchObject({ type: 'monitor', id: ids[9150], name: `bulk ${9151}`, active: false });
    await db.query(`DELETE FROM monitors WHERE id = ANY($1::int[])`, [ids]);
  }, 120_000);

  it('pushes a component that changed to the visitors of each page that shows it', async () => {
    const shown = await monitor('live-shown');
    const other = await monitor('live-other');
    await api()
      .post('/api/status-pages')
      .set(member.auth)
      .send({
        slug: 'live',
        title: 'Live',
        groups: [
          {
            name: 'G',
            collapsed: false,
            items: [
              { type: 'monitor', id: shown },
              { type: 'monitor', id: other },
            ],
          },
        ],
      })
      .expect(201);
    await api().post(`/api/monitors/${other}/check`).set(member.auth).expect(200);
    const socket: BrowserSocket = io(app.url, { transports: ['websocket'], reconnection: false, forceNew: true });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('connect_error', reject));
    expect(await socket.timeout(5000).emitWithAck('subscribe', 'status:live')).toEqual({ ok: true });
    expect(await socket.timeout(5000).emitWithAck('subscribe', 'status:no-such-page')).toMatchObject({ ok: false });
    await api().get('/api/status-pages/live/data').expect(200);

    const pushed: PageItemEvent[] = [];
    socket.on('status.page_item', (event) => pushed.push(event));
    target.respondFor('/live-shown', 503);
    await api().post(`/api/monitors/${shown}/check`).set(member.auth).expect(200);
    const [event] = await waitFor(
      async () => pushed.filter((e) => e.component.id === shown),
      (events) => events.length > 0,
    );
    expect(event).toMatchObject({ slug: 'live', component: { type: 'monitor', id: shown, status: 'down' }, group: { index: 0 } });
    expect(event.group.counts).toMatchObject({ down: 1, up: 1 });
    expect(event.overall).toBe('outage');
    // The data read afterwards agrees with the push, today's bar included.
    const data: StatusPageData = (await api().get('/api/status-pages/live/data').expect(200)).body.data;
    const item = data.groups[0].items!.find((i) => i.id === shown)!;
    expect(item).toEqual(event.component);
    // Its first check (on creation) was up, the one just stored down.
    expect(item.uptime).toBe(50);
    expect(item.days.at(-1)).toBe(50);

    // A rename tells the page's visitors to read again.
    const changed = new Promise<unknown>((resolve) => socket.once('status.page_changed', resolve));
    await api()
      .put(`/api/monitors/${other}`)
      .set(member.auth)
      .send({ name: 'live-renamed', url: `${target.url}/live-other` })
      .expect(200);
    expect(await changed).toEqual({ slug: 'live' });
    const renamed: StatusPageData = (await api().get('/api/status-pages/live/data').expect(200)).body.data;
    expect(renamed.groups[0].items!.map((i) => i.name)).toEqual(['live-shown', 'live-renamed']);
  });

  it('serves feeds of the page incidents, escaped, and cacheable badges of its components only', async () => {
    const shown = await monitor('feed-shown');
    const hidden = await monitor('feed-hidden');
    await api().post(`/api/monitors/${shown}/check`).set(member.auth).expect(200);
    await api()
      .post('/api/status-pages')
      .set(member.auth)
      .send({ slug: 'news', title: 'Feed & <Co>', groups: [{ name: 'G', collapsed: false, items: [{ type: 'monitor', id: shown }] }] })
      .expect(201);
    await api()
      .post('/api/incidents')
      .set(member.auth)
      .send({
        title: 'Checkout <b>slow</b> & "flaky"',
        impact: 'major',
        message: 'Looking <script>alert(1)</script>',
        monitors: [shown],
        pages: ['news'],
      })
      .expect(201);
    // The incident is on the page's data (read again after its change), and raises the banner by its impact.
    const data: StatusPageData = (await api().get('/api/status-pages/news/data').expect(200)).body.data;
    expect(data.incidents.map((i) => i.title)).toEqual(['Checkout <b>slow</b> & "flaky"']);
    expect(data.incidents[0].components).toEqual(['feed-shown']);
    expect(data.overall).toBe('outage');

    const rss = await api().get('/api/status-pages/news/feed.rss').expect(200);
    expect(rss.headers['content-type']).toMatch(/application\/rss\+xml/);
    expect(rss.text).toContain('<title>Feed &amp; &lt;Co&gt;</title>');
    expect(rss.text).not.toContain('<script>');
    const atom = await api().get('/api/status-pages/news/feed.atom').expect(200);
    expect(atom.text).toContain('<feed xmlns="http://www.w3.org/2005/Atom">');
    expect(rss.text).toContain('Checkout &lt;b&gt;slow&lt;/b&gt; &amp; &quot;flaky&quot;');
    expect(atom.text).toContain('<entry>');

    const badge = await svg('/api/status-pages/news/badge.svg').expect(200);
    expect(badge.headers['content-type']).toMatch(/image\/svg\+xml/);
    expect(badge.headers['cache-control']).toBe('public, max-age=60');
    expect(badge.body).not.toContain('<Co>');
    expect(badge.body).toContain('Feed &#38; &#60;Co&#62;');
    const etag = badge.headers.etag;
    expect(etag).toBeTruthy();
    await api().get('/api/status-pages/news/badge.svg').set('If-None-Match', etag).expect(304);

    const status = await svg(`/api/status-pages/news/badges/m${shown}/status.svg`).expect(200);
    expect(status.body).toContain('>feed-shown</text>');
    expect(status.body).toContain('>up</text>');
    expect((await svg(`/api/status-pages/news/badges/m${shown}/uptime.svg?days=7`).expect(200)).body).toContain('100.00%');
    expect((await svg(`/api/status-pages/news/badges/m${shown}/response.svg`).expect(200)).body).toMatch(/\d+ ms/);
    expect((await svg(`/api/status-pages/news/badges/m${shown}/cert.svg`).expect(200)).body).toContain('n/a');
    await api().get(`/api/status-pages/news/badges/m${hidden}/status.svg`).expect(404);
    await api().get(`/api/status-pages/news/badges/m${shown}/uptime.svg?days=91`).expect(400);
    await api().get(`/api/status-pages/news/badges/x${shown}/status.svg`).expect(404);
  });
});
