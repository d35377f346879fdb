import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import request from 'supertest';
import { startTestApp, TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';

/**
 * Issue 34, item 7: with LOG_FORMAT=json the server writes one JSON object per line; each request gets one access
 * line (method, path, status, duration, the request id its answer carried), no credential a caller sent reaches any
 * line, and Nest's route mapping stays out of a normal start. LOG_FORMAT=pretty writes the same lines for a person.
 */

type Line = Record<string, unknown>;

const PASSWORD = 'Log-spec-passw0rd-7c1e';
const COOKIE = 'log-spec-cookie-4b9d';

/** The output's lines, each of which must be one JSON object. */
function jsonLines(output: string): Line[] {
  return output
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      try {
        return JSON.parse(line) as Line;
      } catch {
        throw new Error(`not a JSON line: ${line}`);
      }
    });
}

describe('logging', () => {
  let app: TestApp;
  /** Every request the spec made: its request id and the access line it should have. */
  const made: { id: string; method: string; path: string; status: number }[] = [];
  const secrets: string[] = [PASSWORD, COOKIE];

  /** Sends `test` and remembers what its access line should say (`path` as logged). */
  async function call(test: request.Test, path: string): Promise<request.Response> {
    const response = await test;
    const id = response.headers['x-request-id'];
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    made.push({ id, method: test.method, path, status: response.status });
    return response;
  }

  beforeAll(async () => {
    app = await startTestApp({ env: { LOG_LEVEL: 'log', LOG_FORMAT: 'json' } });
  });
  afterAll(async () => {
    await app?.destroy();
  });

  it('writes one JSON access line per request with the id its answer carried, and no secret anywhere', async () => {
    const api = () => request(app.url);
    const account = { username: 'logadmin', email: 'logadmin@example.test', password: PASSWORD };
    await call(api().post('/api/auth/register').send(account).expect(201), '/api/auth/register');
    await call(
      api()
        .post('/api/auth/login')
        .send({ username: 'logadmin', password: `${PASSWORD}-wrong` })
        .expect(401),
      '/api/auth/login',
    );
    const login = await call(
      api().post('/api/auth/login').send({ username: 'logadmin', password: PASSWORD }).expect(200),
      '/api/auth/login',
    );
    const session = { Authorization: `Bearer ${login.body.token}` };
    secrets.push(login.body.token, `${PASSWORD}-wrong`);
    await call(api().get('/api/auth/me').set(session).set('Cookie', `vigil_session=${COOKIE}`).expect(200), '/api/auth/me');

    const key = await call(api().post('/api/api-keys').set(session).send({ name: 'ci', scope: 'write' }).expect(201), '/api/api-keys');
    secrets.push(key.body.secret);
    await call(
      api()
        .get('/api/monitors?search=nightly')
        .set({ Authorization: `Bearer ${key.body.secret}` })
        .expect(200),
      '/api/monitors',
    );

    const created = await call(
      api().post('/api/monitors').set(session).send({ name: 'nightly backup', type: 'push', retries: 0 }).expect(201),
      '/api/monitors',
    );
    const token: string = created.body.monitor.push_token;
    secrets.push(token, 'finished-at-0300');
    await call(api().get(`/api/push/${token}?status=up&msg=finished-at-0300`).expect(200), '/api/push/{token}');
    await call(api().post(`/api/push/${token}/`).expect(200), '/api/push/{token}/');
    await call(api().get(`/api/push/${token}?status=sideways`).expect(400), '/api/push/{token}');

    const wall = await call(api().post('/api/wall/keys').set(session).send({ name: 'NOC' }).expect(201), '/api/wall/keys');
    secrets.push(wall.body.secret);
    await call(api().get(`/api/wall/data?key=${wall.body.secret}`).expect(200), '/api/wall/data');
    await call(api().get('/api/wall/data').set('X-Display-Key', wall.body.secret).expect(200), '/api/wall/data');
    await call(api().get('/api/monitors/999999').set(session).expect(404), '/api/monitors/999999');

    // A line is written once its answer is sent, which the client may see first.
    const lines = await waitFor(
      async () => jsonLines(app.output()),
      (all) => made.every(({ id }) => all.some((line) => line.module === 'HTTP' && line.requestId === id)),
    );
    for (const { id, method, path, status } of made) {
      const access = lines.filter((line) => line.module === 'HTTP' && line.requestId === id);
      expect(access).toEqual([
        {
          time: expect.any(String),
          level: 'info',
          module: 'HTTP',
          requestId: id,
          method,
          path,
          status,
          durationMs: expect.any(Number),
          message: `${method} ${path} ${status} ${access[0]?.durationMs} ms`,
        },
      ]);
    }
    for (const line of lines)
      expect(line).toEqual(expect.objectContaining({ time: expect.any(String), level: expect.any(String), message: expect.any(String) }));

    const output = app.output();
    for (const secret of secrets) expect(output).not.toContain(secret);
    expect(output).not.toMatch(/Bearer|authorization|cookie|vgk_|vgd_/i);
  });

  it('prints nothing per route at start: the route mapping is at debug', () => {
    const lines = jsonLines(app.output());
    expect(lines.filter((line) => ['RoutesResolver', 'RouterExplorer', 'InstanceLoader'].includes(line.module as string))).toEqual([]);
    expect(app.output()).not.toMatch(/Mapped \{/);
    expect(lines).toContainEqual(
      expect.objectContaining({ level: 'info', module: 'Vigil', message: expect.stringMatching(/^Listening on /) }),
    );
  });

  it('stops at boot on an unknown LOG_FORMAT with one line naming it', () => {
    const main = join(__dirname, '../../server', process.env.TEST_SERVER_DIST ?? 'dist', 'main.js');
    const result = spawnSync(process.execPath, [main], {
      env: { PATH: process.env.PATH, LOG_FORMAT: 'logfmt' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual(['Vigil cannot start: LOG_FORMAT must be json or pretty (got "logfmt")']);
  });

  it('writes readable lines with LOG_FORMAT=pretty', async () => {
    await app.stop();
    const pretty = await startTestApp({ database: app.database, env: { LOG_LEVEL: 'log', LOG_FORMAT: 'pretty' } });
    try {
      const response = await request(pretty.url).get('/api/auth/status').expect(200);
      const id = response.headers['x-request-id'];
      const line = await waitFor(
        async () =>
          pretty
            .output()
            .split('\n')
            .find((text) => text.includes(id)),
        (found) => found !== undefined,
      );
      expect(line).toMatch(
        /^\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}\] INFO: \[HTTP\] GET \/api\/auth\/status 200 [\d.]+ ms \{.*"requestId":/,
      );
      expect(pretty.output()).toMatch(/INFO: \[Vigil\] Listening on http:\/\//);
      expect(
        pretty
          .output()
          .split('\n')
          .filter((text) => text.startsWith('{')),
      ).toEqual([]);
    } finally {
      await pretty.stop();
    }
  });
});
