import { existsSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { io, Socket } from 'socket.io-client';
import {
  MESSAGES,
  type ClientToServerEvents,
  type MessageCode,
  type ServerToClientEvents,
  type StatusPageData,
  type StatusPageDto,
} from '@vigil/proto';
import { enrollAgent } from '../factories/agents';
import { createUser, registerFirstAdmin, Session } from '../factories/users';
import { startTargetServer, TargetServer } from '../support/target-server';
import { startTestApp, TestApp, USERS_REACH_LOOPBACK } from '../support/test-app';

type BrowserSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

const refusal = (code: MessageCode) => ({ success: false, message: MESSAGES[code], code });
const PUBLIC_HOST = 'vigil.example.test';
/** The client build the server serves: the CI builds it first; a work session may point TEST_CLIENT_DIR at its own. */
const CLIENT_DIR = process.env.TEST_CLIENT_DIR ?? join(__dirname, '../../client/dist');
const hasStatusBundle = existsSync(join(CLIENT_DIR, 'status.html'));

describe('status pages: configuration, public data, passwords and domains', () => {
  let app: TestApp;
  let admin: Session;
  let member: Session;
  let viewer: Session;
  let target: TargetServer;
  const sockets: BrowserSocket[] = [];

  beforeAll(async () => {
    [app, target] = await Promise.all([
      startTestApp({ env: { ...USERS_REACH_LOOPBACK, PUBLIC_URL: `http://${PUBLIC_HOST}` } }),
      startTargetServer(),
    ]);
    admin = await registerFirstAdmin(app.url);
    member = await createUser(app.url, admin);
    viewer = await createUser(app.url, admin, 'viewer');
  });
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.disconnect();
  });
  afterAll(async () => {
    await app?.destroy();
    await target?.close();
  });

  const api = () => request(app.url);

  async function monitor(name: string): Promise<number> {
    const { body } = await api()
      .post('/api/monitors')
      .set(member.auth)
      .send({ name, url: `${target.url}/${name}?token=s3cr3t`, retries: 0 })
      .expect(201);
    return body.monitor.id;
  }

  const page = (slug: string, extra: Record<string, unknown> = {}) => ({ slug, title: `Page ${slug}`, groups: [], ...extra });

  async function anonymousSocket(cookie?: string): Promise<BrowserSocket> {
    const socket: BrowserSocket = io(app.url, {
      transports: ['websocket'],
      reconnection: false,
      forceNew: true,
      ...(cookie ? { extraHeaders: { Cookie: cookie } } : {}),
    });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    return socket;
  }

  it('refuses malformed and reserved slugs, naming the problem', async () => {
    const cases: Array<[string, MessageCode]> = [
      ['api', 'statusPages.slugReserved'],
      ['assets', 'statusPages.slugReserved'],
      ['default', 'statusPages.slugReserved'],
      ['Acme', 'statusPages.slugUppercase'],
      ['..', 'statusPages.slugPath'],
      ['a..b', 'statusPages.slugPath'],
      ['a/b', 'statusPages.slugPath'],
      ['a', 'statusPages.slugInvalid'],
      ['-acme', 'statusPages.slugInvalid'],
      ['acme_1', 'statusPages.slugInvalid'],
    ];
    for (const [slug, code] of cases) {
      const { body } = await api().post('/api/status-pages').set(member.auth).send(page(slug)).expect(400);
      expect({ slug, body }).toEqual({ slug, body: refusal(code) });
    }
  });

  it('creates, reads, renames and deletes a page; the default page keeps its slug and stays', async () => {
    const web = await monitor('crud-web');
    const { agentId } = await enrollAgent(app.url, member, 'crud-host');
    const created = await api()
      .post('/api/status-pages')
      .set(member.auth)
      .send(
        page('crud', {
          password: 'open-sesame',
          theme: 'dark',
          historyDays: 30,
          groups: [
            {
              name: 'Web',
              collapsed: false,
              items: [
                { type: 'monitor', id: web },
                { type: 'agent', id: agentId },
              ],
            },
          ],
        }),
      )
      .expect(201);
    expect(created.body).toMatchObject({ success: true, message: MESSAGES['statusPages.created'] });
    expect(created.body.page).toMatchObject({ slug: 'crud', theme: 'dark', historyDays: 30, hasPassword: true, showAgentDetails: false });
    expect(JSON.stringify(created.body)).not.toContain('open-sesame');
    expect(JSON.stringify(created.body)).not.toContain('argon2');

    const { body: list } = await api().get('/api/status-pages').set(viewer.auth).expect(200);
    expect(list.pages.map((p: { slug: string }) => p.slug)).toEqual(expect.arrayContaining(['default', 'crud']));
    expect(list.pages.find((p: { slug: string }) => p.slug === 'crud')).toMatchObject({ components: 2, hasPassword: true });
    await api().put('/api/status-pages/crud').set(viewer.auth).send(page('crud')).expect(403);

    // A PUT keeps what it leaves out (the password too) and renames with a new slug.
    const renamed = await api()
      .put('/api/status-pages/crud')
      .set(member.auth)
      .send(page('crud-2', { groups: created.body.page.groups }))
      .expect(200);
    expect(renamed.body.page).toMatchObject({ slug: 'crud-2', theme: 'dark', hasPassword: true });
    await api().get('/api/status-pages/crud').set(member.auth).expect(404);
    await api().post('/api/status-pages').set(member.auth).send(page('crud-2')).expect(409);

    const { body: audit } = await api().get('/api/audit?target_type=status_page').set(admin.auth).expect(200);
    expect(audit.entries.map((e: { action: string }) => e.action)).toEqual(
      expect.arrayContaining(['status_page.created', 'status_page.saved']),
    );

    await api().delete('/api/status-pages/crud-2').set(member.auth).expect(200);
    await api().get('/api/status-pages/crud-2').set(member.auth).expect(404);
    expect((await api().delete('/api/status-pages/default').set(member.auth).expect(400)).body).toEqual(refusal('statusPages.defaultKept'));
    expect((await api().put('/api/status-pages/default').set(member.auth).send(page('other')).expect(400)).body).toEqual(
      refusal('statusPages.defaultSlug'),
    );
    // The default page is edited here too: groups, theme, footer.
    const saved = await api()
      .put('/api/status-pages/default')
      .set(member.auth)
      .send(
        page('default', {
          footer: 'Run by Ops',
          theme: 'light',
          groups: [{ name: 'All', collapsed: false, items: [{ type: 'monitor', id: web }] }],
        }),
      )
      .expect(200);
    expect(saved.body.page).toMatchObject({ slug: 'default', footer: 'Run by Ops', theme: 'light' });
    // …and the spec's /status reads the same row.
    const { body: spec } = await api().get('/api/status/data').expect(200);
    expect(spec.data.monitors.map((m: { id: number }) => m.id)).toEqual([web]);
  });

  it('refuses unknown or repeated components, bad domains and a taken domain', async () => {
    const web = await monitor('refuse-web');
    const send = (body: Record<string, unknown>) => api().post('/api/status-pages').set(member.auth).send(body);
    const group = (items: unknown[]) => [{ name: 'G', collapsed: false, items }];
    expect((await send(page('unknown', { groups: group([{ type: 'monitor', id: 999_999 }]) })).expect(400)).body).toEqual(
      refusal('statusPages.itemUnknown'),
    );
    expect(
      (
        await send(page('twice', { groups: [...group([{ type: 'monitor', id: web }]), ...group([{ type: 'monitor', id: web }])] })).expect(
          400,
        )
      ).body,
    ).toEqual(refusal('statusPages.itemDuplicate'));
    expect((await send(page('kind', { groups: group([{ type: 'server', id: web }]) })).expect(400)).body).toEqual(
      refusal('statusPages.itemInvalid'),
    );
    for (const domain of [
      'Status.Example.com',
      'https://status.example.com',
      'status.example.com:8080',
      'status.example.com/x',
      '10.0.0.1',
      'localhost',
    ]) {
      expect({ domain, body: (await send(page('domain', { domain })).expect(400)).body }).toEqual({
        domain,
        body: refusal('statusPages.domainInvalid'),
      });
    }
    expect((await send(page('own', { domain: PUBLIC_HOST })).expect(400)).body).toEqual(refusal('statusPages.domainOwn'));
    await send(page('first-domain', { domain: 'status.first.test' })).expect(201);
    expect((await send(page('second-domain', { domain: 'status.first.test' })).expect(409)).body).toEqual(
      refusal('statusPages.domainTaken'),
    );
  });

  it('serves two pages with their own groups, each with day bars over its range', async () => {
    const [web, api1, db] = [await monitor('two-web'), await monitor('two-api'), await monitor('two-db')];
    await api().post(`/api/monitors/${web}/check`).set(member.auth).expect(200);
    await api()
      .post('/api/status-pages')
      .set(member.auth)
      .send(
        page('shop', {
          historyDays: 30,
          groups: [
            { name: 'Storefront', collapsed: false, items: [{ type: 'monitor', id: web }] },
            { name: 'Backend', collapsed: true, items: [{ type: 'monitor', id: api1 }] },
          ],
        }),
      )
      .expect(201);
    await api()
      .post('/api/status-pages')
      .set(member.auth)
      .send(page('data', { groups: [{ name: 'Databases', collapsed: false, items: [{ type: 'monitor', id: db }] }] }))
      .expect(201);

    // The editor's read names each component, so its rows need no read of their own.
    const config = (await api().get('/api/status-pages/shop').set(member.auth).expect(200)).body.page as StatusPageDto;
    expect(config.groups.map((g) => g.items)).toEqual([
      [{ type: 'monitor', id: web, name: 'two-web' }],
      [{ type: 'monitor', id: api1, name: 'two-api' }],
    ]);

    const shop: StatusPageData = (await api().get('/api/status-pages/shop/data').expect(200)).body.data;
    expect(shop.page).toMatchObject({ slug: 'shop', title: 'Page shop', historyDays: 30 });
    expect(shop.groups.map((g) => [g.name, g.size, g.items?.map((i) => i.name) ?? null])).toEqual([
      ['Storefront', 1, ['two-web']],
      // Shown collapsed: read on demand.
      ['Backend', 1, null],
    ]);
    const storefront = shop.groups[0].items![0];
    expect(storefront.days).toHaveLength(30);
    expect(storefront.days.at(-1)).toBe(100);
    expect(storefront.uptime).toBe(100);
    expect(JSON.stringify(shop)).not.toContain('s3cr3t');
    const backend = (await api().get('/api/status-pages/shop/groups/1?offset=0&limit=10').expect(200)).body;
    expect(backend).toMatchObject({ success: true, total: 1, items: [{ type: 'monitor', id: api1, name: 'two-api' }] });
    await api().get('/api/status-pages/shop/groups/7').expect(404);
    expect((await api().get('/api/status-pages/shop/groups/0?limit=1000').expect(400)).body).toEqual(refusal('statusPages.limitInvalid'));

    const data: StatusPageData = (await api().get('/api/status-pages/data/data').expect(200)).body.data;
    expect(data.groups.map((g) => g.name)).toEqual(['Databases']);
    expect(data.groups[0].items!.map((i) => i.id)).toEqual([db]);
    await api().get('/api/status-pages/nothing-here/data').expect(404);
  });

  it('keeps a password page closed to anonymous readers of data, groups, feeds, badges and its room', async () => {
    const web = await monitor('locked-web');
    await api()
      .post('/api/status-pages')
      .set(member.auth)
      .send(
        page('locked', {
          title: 'Secret launch',
          password: 'open-sesame',
          groups: [{ name: 'G', collapsed: false, items: [{ type: 'monitor', id: web }] }],
        }),
      )
      .expect(201);
    for (const path of ['data', 'groups/0', 'feed.rss', 'feed.atom', 'badge.svg', `badges/m${web}/status.svg`]) {
      const answer = await api().get(`/api/status-pages/locked/${path}`).expect(401);
      expect({ path, body: answer.body }).toEqual({ path, body: refusal('statusPages.locked') });
      expect(answer.text).not.toContain('Secret launch');
    }
    const stranger = await anonymousSocket();
    expect(await stranger.timeout(5000).emitWithAck('subscribe', 'status:locked')).toEqual({
      ok: false,
      error: MESSAGES['statusPages.locked'],
    });

    const unlocked = await api().post('/api/status-pages/locked/unlock').send({ password: 'open-sesame' }).expect(200);
    const setCookie = String(unlocked.headers['set-cookie']);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    const cookie = setCookie.split(';')[0];
    expect((await api().get('/api/status-pages/locked/data').set('Cookie', cookie).expect(200)).body.data.page.title).toBe('Secret launch');
    // What the cookie opens stays in the reader's own cache: a shared one would serve it to anyone.
    const feed = await api().get('/api/status-pages/locked/feed.rss').set('Cookie', cookie).expect(200);
    expect(feed.headers['cache-control']).toBe('private, no-cache');
    const badge = await api().get(`/api/status-pages/locked/badges/m${web}/status.svg`).set('Cookie', cookie).expect(200);
    expect(badge.headers['cache-control']).toBe('private, max-age=60');
    const visitor = await anonymousSocket(cookie);
    expect(await visitor.timeout(5000).emitWithAck('subscribe', 'status:locked')).toEqual({ ok: true });
    // Another page's cookie opens nothing here.
    await api()
      .get('/api/status-pages/locked/data')
      .set('Cookie', cookie.replace(/vigil_page_\d+/, 'vigil_page_1'))
      .expect(401);

    // A new password voids every cookie given before it.
    await api()
      .put('/api/status-pages/locked')
      .set(member.auth)
      .send(page('locked', { password: 'another-one', groups: [] }))
      .expect(200);
    await api().get('/api/status-pages/locked/data').set('Cookie', cookie).expect(401);

    // Wrong passwords: 401, then 429 for this address once it has guessed too often.
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 7; attempt += 1) {
      const answer = await api()
        .post('/api/status-pages/locked/unlock')
        .send({ password: `guess-${attempt}` });
      statuses.push(answer.status);
      if (answer.status === 401) expect(answer.body).toEqual(refusal('statusPages.passwordWrong'));
      if (answer.status === 429) expect(answer.body).toEqual(refusal('statusPages.tooManyUnlocks'));
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429, 429]);
    await api().post('/api/status-pages/locked/unlock').send({ password: 'another-one' }).expect(429);
  });

  it('routes a custom domain to its page, and refuses another page there', async () => {
    await api()
      .post('/api/status-pages')
      .set(member.auth)
      .send(page('acme', { domain: 'status.acme.test' }))
      .expect(201);
    await api().post('/api/status-pages').set(member.auth).send(page('globex')).expect(201);
    // The data is by slug, whatever the Host.
    await api().get('/api/status-pages/globex/data').set('Host', 'status.acme.test').expect(200);
    // The pages' HTML routes exist only where a client is built (client/dist or TEST_CLIENT_DIR).
    if (!hasStatusBundle) return;
    const other = await api().get('/status/globex').set('Host', 'status.acme.test').set('Accept', 'text/html').expect(404);
    expect(other.body).toEqual(refusal('statusPages.otherDomain'));
    await api().get('/status').set('Host', 'status.acme.test').set('Accept', 'text/html').expect(404);
    const home = await api().get('/').set('Host', 'status.acme.test').set('Accept', 'text/html').expect(200);
    expect(home.text).toContain('<meta name="vigil-page" content="acme">');
    expect(home.text).not.toContain('VIGIL_CSP_NONCE');
    const own = await api().get('/status/acme').set('Host', 'status.acme.test').set('Accept', 'text/html').expect(200);
    expect(own.text).toContain('content="acme"');
    // On the server's own host: the operator app at /, the public bundle for the pages.
    expect((await api().get('/').set('Accept', 'text/html').expect(200)).text).not.toContain('vigil-page');
    expect((await api().get('/status').set('Accept', 'text/html').expect(200)).text).toContain('content="default"');
    expect((await api().get('/status/globex').set('Accept', 'text/html').expect(200)).text).toContain('content="globex"');
    expect((await api().get('/status/config').set('Accept', 'text/html').expect(200)).text).not.toContain('vigil-page');
  });
});
