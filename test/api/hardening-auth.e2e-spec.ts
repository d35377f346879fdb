import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import request from 'supertest';
import { Client } from 'pg';
import { LOGIN_FREE_FAILURES_PER_ADDRESS, LOGIN_FREE_FAILURES_PER_PAIR, MESSAGES } from '@vigil/proto';
import { createUser, login, registerFirstAdmin, Session } from '../factories/users';
import { ProxiedApp, startAppBehindProxy } from '../support/proxied-app';
import { CutMode, TcpProxy } from '../support/tcp-proxy';
import { startTestApp, TestApp } from '../support/test-app';
import { sleep, waitFor } from '../support/wait';

const tooMany = { success: false, message: MESSAGES['auth.tooManyAttempts'], code: 'auth.tooManyAttempts' };
const unavailable = { success: false, message: MESSAGES['request.databaseUnavailable'], code: 'request.databaseUnavailable' };

function attempt(app: TestApp, username: string, password: string, from?: string) {
  const call = request(app.url).post('/api/auth/login');
  if (from) call.set('X-Forwarded-For', from);
  return call.send({ username, password });
}

describe('login limits without TRUST_PROXY (issue 14, finding 5)', () => {
  let app: TestApp;
  let admin: Session;

  beforeAll(async () => {
    app = await startTestApp();
    admin = await registerFirstAdmin(app.url);
  });
  afterAll(() => app?.destroy());

  it('ignores a rotating X-Forwarded-For from loopback and answers 429 with Retry-After past the limit', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 40; i += 1) {
      const response = await attempt(app, admin.user.username, `wrong-${i}-pass`, `198.51.100.${i + 1}`);
      statuses.push(response.status);
      if (response.status === 429) {
        expect(response.body).toEqual(tooMany);
        expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
      }
    }
    expect(statuses.slice(0, LOGIN_FREE_FAILURES_PER_PAIR)).toEqual(Array(LOGIN_FREE_FAILURES_PER_PAIR).fill(401));
    expect(statuses.slice(LOGIN_FREE_FAILURES_PER_PAIR)).toEqual(Array(40 - LOGIN_FREE_FAILURES_PER_PAIR).fill(429));
  });

  it.each(['true', '10.0.0.0/33'])('refuses TRUST_PROXY=%s at boot with one line naming it', (value) => {
    const result = spawnSync(process.execPath, [join(__dirname, '../../server/dist/main.js')], {
      env: { PATH: process.env.PATH, TRUST_PROXY: value },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([expect.stringContaining('TRUST_PROXY')]);
  });
});

describe('login limits with TRUST_PROXY=1 (issue 14, finding 5)', () => {
  let app: TestApp;
  let admin: Session;

  beforeAll(async () => {
    app = await startTestApp({ env: { TRUST_PROXY: '1' } });
    admin = await registerFirstAdmin(app.url);
  });
  afterAll(() => app?.destroy());

  it('takes the client address from the proxy header, so one address does not block another', async () => {
    const user = await createUser(app.url, admin);
    for (let i = 0; i < LOGIN_FREE_FAILURES_PER_PAIR; i += 1) {
      await attempt(app, user.user.username, `wrong-${i}-pass`, '198.51.100.1').expect(401);
    }
    await attempt(app, user.user.username, user.password, '198.51.100.1').expect(429);
    await attempt(app, user.user.username, 'still-wrong-pass', '198.51.100.2').expect(401);
  });

  it('lets the owner sign in from their own address while an attacker hammering the account is slowed', async () => {
    const victim = admin.user.username;
    const statuses: number[] = [];
    for (let i = 0; i < 30; i += 1) statuses.push((await attempt(app, victim, `guess-${i}-pass`, '203.0.113.66')).status);
    expect(statuses.filter((status) => status === 429)).toHaveLength(30 - LOGIN_FREE_FAILURES_PER_PAIR);
    // Even the right password from the attacker's address waits: it cannot be told apart.
    await attempt(app, victim, admin.password, '203.0.113.66').expect(429);
    const { body } = await attempt(app, victim, admin.password, '192.0.2.10').expect(200);
    expect(body).toMatchObject({ success: true, user: { username: victim } });
  });

  it('slows one address spraying many accounts, whatever names it tries', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < LOGIN_FREE_FAILURES_PER_ADDRESS + 5; i += 1) {
      statuses.push((await attempt(app, `nobody${i}`, 'wrong-pass-1', '203.0.113.77')).status);
    }
    expect(statuses.slice(0, LOGIN_FREE_FAILURES_PER_ADDRESS)).toEqual(Array(LOGIN_FREE_FAILURES_PER_ADDRESS).fill(401));
    expect(new Set(statuses.slice(LOGIN_FREE_FAILURES_PER_ADDRESS))).toEqual(new Set([429]));
    await attempt(app, admin.user.username, admin.password, '192.0.2.11').expect(200);
  });
});

describe("an admin's own password and role (issue 14, finding 10)", () => {
  let app: TestApp;
  let admin: Session;

  beforeAll(async () => {
    app = await startTestApp();
    admin = await registerFirstAdmin(app.url);
  });
  afterAll(() => app?.destroy());

  it('refuses a new password for oneself through PUT /api/users/{own id}: it needs the current one', async () => {
    const { body } = await request(app.url)
      .put(`/api/users/${admin.user.id}`)
      .set(admin.auth)
      .send({ password: 'taken-over-pass-1' })
      .expect(403);
    expect(body).toEqual({ success: false, message: MESSAGES['users.ownPasswordNeedsCurrent'], code: 'users.ownPasswordNeedsCurrent' });
    await request(app.url).post('/api/auth/login').send({ username: admin.user.username, password: 'taken-over-pass-1' }).expect(401);
    await login(app.url, admin.user.username, admin.password);
    // The documented way still works.
    await request(app.url)
      .post(`/api/users/${admin.user.id}/change-password`)
      .set(admin.auth)
      .send({ currentPassword: admin.password, newPassword: 'rotated-pass-2' })
      .expect(200);
    admin = await login(app.url, admin.user.username, 'rotated-pass-2');
  });

  it('slows guessing the current password through change-password as it slows sign-in', async () => {
    const user = await createUser(app.url, admin);
    const statuses: number[] = [];
    for (let i = 0; i < LOGIN_FREE_FAILURES_PER_PAIR + 3; i += 1) {
      const response = await request(app.url)
        .post(`/api/users/${user.user.id}/change-password`)
        .set(user.auth)
        .send({ currentPassword: `guess-${i}-pass`, newPassword: 'taken-over-pass-1' });
      statuses.push(response.status);
    }
    expect(statuses).toEqual([...Array(LOGIN_FREE_FAILURES_PER_PAIR).fill(400), 429, 429, 429]);
  });

  it("refuses a change of one's own role even when another admin remains, and still resets others' passwords", async () => {
    const other = await createUser(app.url, admin, 'admin');
    const { body } = await request(app.url).put(`/api/users/${admin.user.id}`).set(admin.auth).send({ role: 'user' }).expect(403);
    expect(body.code).toBe('users.ownRole');
    await request(app.url).put(`/api/users/${other.user.id}`).set(admin.auth).send({ password: 'reset-by-admin-1' }).expect(200);
    await login(app.url, other.user.username, 'reset-by-admin-1');
  });
});

describe('database faults (issue 14, finding 11)', () => {
  let proxied: ProxiedApp;
  let proxy: TcpProxy;
  let app: TestApp;
  let admin: Session;

  beforeAll(async () => {
    // The server reaches its database (real PostgreSQL, or an embedded cluster on a loopback port) through a relay the
    // test can make refuse, reset or silently drop connections.
    proxied = await startAppBehindProxy({ DATABASE_CONNECT_TIMEOUT_MS: '2000', DATABASE_STATEMENT_TIMEOUT_MS: '2000' });
    ({ app, proxy } = proxied);
    admin = await registerFirstAdmin(app.url);
  });
  afterAll(() => proxied?.destroy());

  /** Runs a request and measures how long its answer took. */
  async function timed(call: () => request.Test): Promise<{ status: number; body: unknown; ms: number; retryAfter?: string }> {
    const started = Date.now();
    const response = await call();
    return { status: response.status, body: response.body, ms: Date.now() - started, retryAfter: response.headers['retry-after'] };
  }

  it.each<CutMode>(['refuse', 'reset', 'blackhole'])(
    'answers 503 within a few seconds while the database %ss connections, and recovers',
    async (mode) => {
      await proxy.cut(mode);
      try {
        for (const call of [
          () => request(app.url).post('/api/auth/login').send({ username: admin.user.username, password: admin.password }),
          () => request(app.url).get('/api/auth/me').set(admin.auth),
          () => request(app.url).get('/api/users').set(admin.auth),
        ]) {
          const answer = await timed(call);
          expect(answer).toMatchObject({ status: 503, body: unavailable, retryAfter: '5' });
          expect(answer.ms).toBeLessThan(8000);
        }
        const health = await timed(() => request(app.url).get('/api/health'));
        expect(health).toMatchObject({ status: 503, body: { success: false, code: 'health.databaseDown' } });
        expect(health.ms).toBeLessThan(8000);
      } finally {
        await proxy.restore();
      }
      await waitFor(
        async () =>
          (await request(app.url).post('/api/auth/login').send({ username: admin.user.username, password: admin.password })).status,
        (status) => status === 200,
        20_000,
      );
      await request(app.url).get('/api/auth/me').set(admin.auth).expect(200);
    },
  );

  it('answers 503 on /api/health while the database refuses writes, and 200 once they work again', async () => {
    // Reads keep working while every write fails with SQLSTATE 53100, as on a full disk.
    const direct = new Client({ connectionString: proxied.database.url! });
    await direct.connect();
    const logStart = app.output().length;
    try {
      await direct.query(`CREATE FUNCTION vigil_test_disk_full() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'could not extend file: No space left on device' USING ERRCODE = '53100'; END $$`);
      await direct.query(`CREATE TRIGGER vigil_test_disk_full BEFORE INSERT OR UPDATE ON settings
        FOR EACH ROW EXECUTE FUNCTION vigil_test_disk_full()`);
      const write = await request(app.url).put('/api/settings').set(admin.auth).send({ allowRegistration: true });
      expect(write.status).toBe(503);
      expect(write.body).toEqual(unavailable);
      await request(app.url).get('/api/auth/me').set(admin.auth).expect(200);
      const { body } = await request(app.url).get('/api/health').expect(503);
      expect(body).toEqual({ success: false, message: MESSAGES['health.databaseWritesFailing'], code: 'health.databaseWritesFailing' });
      // A load balancer polling every few hundred ms through the outage (issue 27: a stack trace per poll).
      for (let poll = 0; poll < 5; poll += 1) {
        await request(app.url).get('/api/health').expect(503);
        await sleep(300);
      }

      await direct.query('DROP TRIGGER vigil_test_disk_full ON settings');
      await direct.query('DROP FUNCTION vigil_test_disk_full()');
      await waitFor(
        async () => (await request(app.url).get('/api/health')).status,
        (status) => status === 200,
        25_000,
      );
      await request(app.url).put('/api/settings').set(admin.auth).send({ allowRegistration: true }).expect(200);
      const logged = app.output().slice(logStart);
      expect(logged).not.toContain('GET /api/health failed');
      expect(logged.match(/Database is refusing writes/g)).toHaveLength(1);
    } finally {
      await direct.end();
    }
  });
});
