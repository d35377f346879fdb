import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { SECRET_MASK, type MonitorDto } from '@vigil/proto';
import { createUser, registerFirstAdmin, type Session } from '../factories/users';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * Issue 33, requirement 11: a `browser` monitor on the real server, driving Debian's Chromium against a shop page this
 * test serves on 127.0.0.1: up through its steps, a failing expectText → down with a named error and a screenshot
 * served to signed-in users, recovery; bad steps → 400 naming the field; a page that never loads → a bounded, named
 * timeout.
 */
describe('browser monitors', () => {
  let app: TestApp;
  let admin: Session;
  let shop: Server;
  let shopUrl: string;
  /** What the shop's result page says; the test changes it to fail and recover the monitor. */
  let results = 'Results for shoes';

  beforeAll(async () => {
    shop = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0];
      if (path === '/never') return; // accepts, never answers
      const page =
        path === '/search'
          ? `<title>Search</title><p>${results}</p>`
          : `<title>Shop</title><form action="/search"><input name="q"><button id="go">Search</button></form>`;
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
    });
    await new Promise<void>((resolve) => shop.listen(0, '127.0.0.1', resolve));
    shopUrl = `http://127.0.0.1:${(shop.address() as AddressInfo).port}`;
    app = await startTestApp();
    // Members may not reach loopback (USER_OUTBOUND_DENY): monitors are the admin's.
    admin = await registerFirstAdmin(app.url);
  }, 120_000);
  afterAll(async () => {
    await app?.destroy();
    shop?.closeAllConnections();
    await new Promise((resolve) => shop?.close(resolve));
  });

  const api = () => request(app.url);
  const STEPS = ['fill input[name=q] = {{secret}}', 'click #go', 'expectUrl /search?q=shoes', 'expectText Results for shoes'];
  const base = () => ({ name: 'shop search', type: 'browser', url: `${shopUrl}/`, retries: 0, active: false, timeout: 15 });

  async function check(id: number): Promise<{ status: string; error: string | null; monitor: MonitorDto }> {
    const { body } = await api().post(`/api/monitors/${id}/check`).set(admin.auth).expect(200);
    return { status: body.check.status, error: body.check.error, monitor: body.monitor };
  }

  it('is up through its steps, down with a screenshot when the text is missing, and recovers', async () => {
    const { body } = await api()
      .post('/api/monitors')
      .set(admin.auth)
      .send({ ...base(), steps: STEPS, stepSecret: 'shoes', assertions: [{ source: 'consoleErrors', operator: 'eq', value: 0 }] })
      .expect(201);
    const monitor: MonitorDto = body.monitor;
    expect(monitor).toMatchObject({
      type: 'browser',
      url: `${shopUrl}/`,
      settings: { steps: STEPS, stepSecret: SECRET_MASK, ignoreTls: false },
    });

    expect(await check(monitor.id)).toMatchObject({ status: 'up', error: null, monitor: { status: 'up' } });
    const none = await api().get(`/api/monitors/${monitor.id}/screenshot`).set(admin.auth).expect(404);
    expect(none.body).toMatchObject({ success: false, code: 'monitors.screenshotNotFound' });

    results = 'Nothing found';
    expect(await check(monitor.id)).toMatchObject({
      status: 'down',
      error: 'Step 4 (expectText "Results for shoes"): text not found on the page',
      monitor: { status: 'down' },
    });
    const shot = await api()
      .get(`/api/monitors/${monitor.id}/screenshot`)
      .set(admin.auth)
      .buffer(true)
      .parse((res, done) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(200)
      .expect('content-type', 'image/png');
    expect((shot.body as Buffer).subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));

    // Any signed-in user sees it (monitors are shared); nobody signed out does.
    const member = await createUser(app.url, admin);
    await api().get(`/api/monitors/${monitor.id}/screenshot`).set(member.auth).expect(200);
    await api().get(`/api/monitors/${monitor.id}/screenshot`).expect(401);

    results = 'Results for shoes';
    expect(await check(monitor.id)).toMatchObject({ status: 'up', error: null, monitor: { status: 'up' } });
    // The last failure's screenshot stays until the next failure replaces it.
    await api().get(`/api/monitors/${monitor.id}/screenshot`).set(admin.auth).expect(200);

    await api().delete(`/api/monitors/${monitor.id}`).set(admin.auth).expect(200);
    await api().get(`/api/monitors/${monitor.id}/screenshot`).set(admin.auth).expect(404);
  }, 90_000);

  it('fails on a failing assertion with its own words', async () => {
    const { body } = await api()
      .post('/api/monitors/test')
      .set(admin.auth)
      .send({ ...base(), assertions: [{ source: 'finalUrl', operator: 'contains', value: '/checkout' }] })
      .expect(200);
    expect(body.result).toMatchObject({ ok: false });
    expect(body.result.error).toMatch(/^finalUrl contains .*\/checkout.* failed: got /);
    expect(body.result.error).toContain(`${shopUrl}/`);
  }, 60_000);

  it.each([
    ['an unknown step', { steps: ['click #go', 'hover #menu'] }, 'steps', 'notifications.fieldList'],
    ['more than 20 steps', { steps: Array.from({ length: 21 }, (_, index) => `click #b${index}`) }, 'steps', 'notifications.fieldList'],
  ])('refuses %s with a 400 naming the field', async (_case, settings, field, code) => {
    const { body } = await api()
      .post('/api/monitors')
      .set(admin.auth)
      .send({ ...base(), ...settings })
      .expect(400);
    expect(body).toMatchObject({ success: false, code, field });
  });

  it('keeps ignoreTls in its settings and refuses one that is not a flag (the shared ignoreTls rule)', async () => {
    const { body } = await api()
      .post('/api/monitors')
      .set(admin.auth)
      .send({ ...base(), ignoreTls: true })
      .expect(201);
    expect(body.monitor.settings).toEqual({ ignoreTls: true });
    const refused = await api()
      .post('/api/monitors')
      .set(admin.auth)
      .send({ ...base(), ignoreTls: 'maybe' })
      .expect(400);
    expect(refused.body).toMatchObject({ success: false, code: 'monitors.ignoreTlsInvalid', message: 'ignoreTls must be true or false' });
  });

  it('refuses a monitor without a URL', async () => {
    const { body } = await api()
      .post('/api/monitors')
      .set(admin.auth)
      .send({ ...base(), url: undefined })
      .expect(400);
    expect(body).toMatchObject({ success: false, code: 'monitors.urlRequired' });
  });

  it("judges the page's address by the tester's outbound rules: a member's check may not reach loopback", async () => {
    const member = await createUser(app.url, admin);
    const { body } = await api().post('/api/monitors/test').set(member.auth).send(base()).expect(400);
    expect(body).toMatchObject({ success: false, code: 'monitors.targetUserDenied' });
    expect(body.message).toContain('Address 127.0.0.1 is refused by USER_OUTBOUND_DENY');
  });

  it('fails a page that never loads with a named timeout, on time', async () => {
    const started = Date.now();
    const { body } = await api()
      .post('/api/monitors/test')
      .set(admin.auth)
      .send({ ...base(), url: `${shopUrl}/never`, timeout: 3 })
      .expect(200);
    expect(body.result).toMatchObject({ ok: false, error: 'The page did not load within 3 s' });
    expect(Date.now() - started).toBeLessThan(13000);
  }, 30_000);
});
