import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import request from 'supertest';
import { BODY_LIMIT_BYTES, MESSAGES } from '@vigil/proto';
import { registerFirstAdmin, Session } from '../factories/users';
import { ProxiedApp, startAppBehindProxy } from '../support/proxied-app';
import { TcpProxy } from '../support/tcp-proxy';
import { startTestApp, TestApp } from '../support/test-app';

describe('HTTP behaviour of every route', () => {
  let app: TestApp;
  let admin: Session;

  beforeAll(async () => {
    app = await startTestApp();
    admin = await registerFirstAdmin(app.url);
  });
  afterAll(() => app?.destroy());

  const api = () => request(app.url);

  it('answers malformed JSON with 400 and keeps serving', async () => {
    const { body } = await api().post('/api/auth/login').set('Content-Type', 'application/json').send('{"username": "admin", ').expect(400);
    expect(body).toEqual({ success: false, message: MESSAGES['request.malformedJson'], code: 'request.malformedJson' });
    await api().get('/api/health').expect(200);
  });

  it('answers a body over 1 MB with 413 and stores nothing', async () => {
    const huge = JSON.stringify({ username: 'x'.repeat(BODY_LIMIT_BYTES), password: 'password-123' });
    const { body } = await api().post('/api/users').set(admin.auth).set('Content-Type', 'application/json').send(huge).expect(413);
    expect(body).toMatchObject({ success: false, message: MESSAGES['request.bodyTooLarge'] });
    const { body: list } = await api().get('/api/users').set(admin.auth).expect(200);
    expect(list.total).toBe(1);
  });

  it.each(['/api/nope', '/api/users/1/nothing', '/api'])('answers the unknown API path %s with a JSON 404', async (path) => {
    const response = await api().get(path).set(admin.auth).expect(404);
    expect(response.headers['content-type']).toMatch(/json/);
    expect(response.body).toMatchObject({ success: false, message: MESSAGES['request.notFound'] });
  });

  it('answers wrong types with the first human-readable message, never a 500', async () => {
    const { body } = await api()
      .post('/api/auth/login')
      .send({ username: 42, password: ['x'] })
      .expect(400);
    expect(body).toMatchObject({ success: false, message: MESSAGES['validation.usernameRequired'] });
    const settings = await api().put('/api/settings').set(admin.auth).send({ allowRegistration: 'yes please' }).expect(400);
    expect(settings.body.success).toBe(false);
    const array = await api().post('/api/auth/register').send([1, 2, 3]).expect(400);
    expect(array.body.success).toBe(false);
  });

  it('tags every answer with a request id', async () => {
    const response = await api().get('/api/health');
    expect(response.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('serves the client with an SPA fallback for deep links', async () => {
    for (const path of ['/', '/monitors/12', '/users/3']) {
      const response = await api().get(path).set('Accept', 'text/html').expect(200);
      expect(response.headers['content-type']).toMatch(/html/);
      expect(response.text).toContain('<div id="root">');
    }
  });

  it('publishes OpenAPI docs generated from the controllers', async () => {
    const ui = await api().get('/api/docs').expect(200);
    expect(ui.text).toMatch(/swagger/i);
    const { body } = await api().get('/api/docs-json').expect(200);
    expect(Object.keys(body.paths)).toEqual(
      expect.arrayContaining([
        '/api/auth/login',
        '/api/auth/register',
        '/api/auth/me',
        '/api/users',
        '/api/users/{id}',
        '/api/settings',
        '/api/health',
      ]),
    );
    expect(body.components.schemas.RegisterDto.properties).toHaveProperty('username');
  });
});

describe('GET /api/health', () => {
  let proxied: ProxiedApp;
  let app: TestApp;
  let proxy: TcpProxy;

  beforeAll(async () => {
    proxied = await startAppBehindProxy();
    ({ app, proxy } = proxied);
  });
  afterAll(() => proxied?.destroy());

  it('answers 503 while the database is unreachable and 200 again once it is back', async () => {
    await request(app.url).get('/api/health').expect(200, { success: true, database: 'up' });
    await proxy.cut();
    const { body } = await request(app.url).get('/api/health').expect(503);
    expect(body).toEqual({ success: false, message: MESSAGES['health.databaseDown'], code: 'health.databaseDown' });
    await proxy.restore();
    let status = 0;
    for (let attempt = 0; attempt < 20 && status !== 200; attempt += 1) {
      status = (await request(app.url).get('/api/health')).status;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(status).toBe(200);
  });
});

describe('configuration at boot', () => {
  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://localhost/vigil' }, 'DATABASE_URL'],
    [{ JWT_SECRET: 'too-short' }, 'JWT_SECRET'],
    [{ LOG_LEVEL: 'chatty' }, 'LOG_LEVEL'],
  ])('stops on %j with one clear line naming the variable', (env, name) => {
    const result = spawnSync(process.execPath, [join(__dirname, '../../server/dist/main.js')], {
      env: { PATH: process.env.PATH, ...env },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.status).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(name);
  });
});
