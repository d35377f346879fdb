import { createHash } from 'node:crypto';
import request from 'supertest';
import { Client } from 'pg';
import { io } from 'socket.io-client';
import type { ApiKeyCreatedResponse, ApiKeyDto, ApiKeyScope } from '@vigil/proto';
import { createUser, registerFirstAdmin, Session } from '../factories/users';
import { createTestDatabase, type TestDatabase } from '../support/test-database';
import { startTestApp, TestApp } from '../support/test-app';

/** Issue 31, requirement 2: API keys on two instances of one database. */
describe('API keys', () => {
  let database: TestDatabase;
  let a: TestApp;
  let b: TestApp;
  let db: Client;
  let admin: Session;
  let member: Session;
  let viewer: Session;

  beforeAll(async () => {
    database = await createTestDatabase('url');
    [a, b] = await Promise.all([0, 1].map(() => startTestApp({ database })));
    admin = await registerFirstAdmin(a.url);
    member = await createUser(a.url, admin);
    viewer = await createUser(a.url, admin, 'viewer');
    db = new Client({ connectionString: database.url! });
    await db.connect();
  }, 120_000);

  afterAll(async () => {
    await db?.end();
    await Promise.all([a, b].map((app) => app?.stop()));
    await database?.drop();
  }, 60_000);

  async function createKey(owner: Session, scope: ApiKeyScope, extra: object = {}): Promise<ApiKeyCreatedResponse> {
    const { body } = await request(a.url)
      .post('/api/api-keys')
      .set(owner.auth)
      .send({ name: `${scope} key`, scope, ...extra })
      .expect(201);
    return body as ApiKeyCreatedResponse;
  }
  const bearer = (secret: string) => ({ Authorization: `Bearer ${secret}` });

  it('answers the key once, lists only its prefix, and stores only its SHA-256', async () => {
    const created = await createKey(member, 'read');
    expect(created.secret).toMatch(/^vgk_[A-Za-z0-9_-]{43}$/);
    expect(created.key).toMatchObject({ scope: 'read', state: 'active', expires_at: null, last_used_at: null });
    expect(created.secret.startsWith(created.key.prefix)).toBe(true);
    expect(created.key.prefix.length).toBeLessThan(16);

    const listed = await request(b.url).get('/api/api-keys').set(member.auth).expect(200);
    expect(JSON.stringify(listed.body)).not.toContain(created.secret);
    expect(listed.body.keys.map((key: ApiKeyDto) => key.id)).toContain(created.key.id);

    const { rows } = await db.query('SELECT * FROM api_keys WHERE id = $1', [created.key.id]);
    expect(rows[0].key_hash).toBe(createHash('sha256').update(created.secret).digest('hex'));
    expect(JSON.stringify(rows)).not.toContain(created.secret.slice(created.key.prefix.length));

    // Created and revoked are audited with the owner as actor, never with the key.
    await request(a.url).delete(`/api/api-keys/${created.key.id}`).set(member.auth).expect(200);
    const { body: audit } = await request(b.url)
      .get(`/api/audit?target_type=api_key&target_id=${created.key.id}`)
      .set(admin.auth)
      .expect(200);
    expect(audit.entries.map((entry: { action: string; actor: { username: string } }) => [entry.action, entry.actor.username])).toEqual([
      ['api_key.revoked', member.user.username],
      ['api_key.created', member.user.username],
    ]);
    expect(JSON.stringify(audit)).not.toContain(created.secret.slice(created.key.prefix.length));
  });

  it('lets a read key read, and refuses its writes with a clear code', async () => {
    const { secret } = await createKey(member, 'read');
    await request(b.url).get('/api/monitors').set(bearer(secret)).expect(200);
    const write = await request(b.url)
      .post('/api/monitors')
      .set(bearer(secret))
      .send({ name: 'x', type: 'http', url: 'https://example.test' });
    expect({ status: write.status, code: write.body.code }).toEqual({ status: 403, code: 'apiKeys.scope' });
  });

  it('lets a write key write with its owner role', async () => {
    const { secret } = await createKey(member, 'write');
    const created = await request(b.url).post('/api/monitors').set(bearer(secret)).send({ name: 'by key', type: 'push' }).expect(201);
    await request(b.url).delete(`/api/monitors/${created.body.monitor.id}`).set(bearer(secret)).expect(200);
    // Still its owner's role: a user's key is no admin.
    await request(b.url).get('/api/users').set(bearer(secret)).expect(403);
  });

  it('opens only GET /api/metrics with a metrics key', async () => {
    const { secret } = await createKey(admin, 'metrics');
    const metrics = await request(b.url).get('/api/metrics').set(bearer(secret)).expect(200);
    expect(metrics.text).toContain('# TYPE');
    for (const path of ['/api/monitors', '/api/dashboard', '/api/users']) {
      const refused = await request(b.url).get(path).set(bearer(secret));
      expect({ path, status: refused.status, code: refused.body.code }).toEqual({ path, status: 403, code: 'apiKeys.scope' });
    }
  });

  it('refuses keys on account routes, whatever their scope', async () => {
    const { secret } = await createKey(admin, 'write');
    const calls = [
      request(b.url).get('/api/api-keys').set(bearer(secret)),
      request(b.url).post('/api/api-keys').set(bearer(secret)).send({ name: 'minted', scope: 'write' }),
      request(b.url).put(`/api/users/${admin.user.id}`).set(bearer(secret)).send({ email: 'x@example.test' }),
      request(b.url)
        .post(`/api/users/${admin.user.id}/change-password`)
        .set(bearer(secret))
        .send({ currentPassword: admin.password, newPassword: 'Another-pass-123' }),
    ];
    for (const response of await Promise.all(calls)) {
      expect({ status: response.status, code: response.body.code }).toEqual({ status: 403, code: 'apiKeys.sessionOnly' });
    }
  });

  it('answers a malformed, unknown, expired or revoked key alike: 401, one message', async () => {
    const expired = await createKey(member, 'read', { expiresInDays: 1 });
    await request(a.url).get('/api/monitors').set(bearer(expired.secret)).expect(200);
    await db.query(`UPDATE api_keys SET expires_at = now() - interval '1 second' WHERE id = $1`, [expired.key.id]);
    const revoked = await createKey(member, 'read');
    await request(a.url).delete(`/api/api-keys/${revoked.key.id}`).set(member.auth).expect(200);
    const presented = ['vgk_', 'vgk_short', `vgk_${'A'.repeat(43)}`, expired.secret, revoked.secret];
    const bodies = [];
    for (const secret of presented) {
      const response = await request(b.url).get('/api/monitors').set(bearer(secret));
      expect(response.status).toBe(401);
      bodies.push({ message: response.body.message, code: response.body.code });
    }
    expect(new Set(bodies.map((body) => JSON.stringify(body))).size).toBe(1);
    expect(bodies[0].code).toBe('apiKeys.invalid');
    const list = await request(a.url).get('/api/api-keys').set(member.auth).expect(200);
    const states = Object.fromEntries(list.body.keys.map((key: ApiKeyDto) => [key.id, key.state]));
    expect([states[expired.key.id], states[revoked.key.id]]).toEqual(['expired', 'revoked']);
  });

  it('refuses a key revoked on one instance at once on the other', async () => {
    const { key, secret } = await createKey(member, 'read');
    await request(b.url).get('/api/monitors').set(bearer(secret)).expect(200);
    await request(a.url).delete(`/api/api-keys/${key.id}`).set(member.auth).expect(200);
    await request(b.url).get('/api/monitors').set(bearer(secret)).expect(401);
  });

  it('marks a key used, at most once a minute', async () => {
    const { key, secret } = await createKey(member, 'read');
    await request(b.url).get('/api/monitors').set(bearer(secret)).expect(200);
    const first = (await db.query('SELECT last_used_at FROM api_keys WHERE id = $1', [key.id])).rows[0].last_used_at as Date;
    expect(first).not.toBeNull();
    await request(b.url).get('/api/monitors').set(bearer(secret)).expect(200);
    const second = (await db.query('SELECT last_used_at FROM api_keys WHERE id = $1', [key.id])).rows[0].last_used_at as Date;
    expect(second.getTime()).toBe(first.getTime());
  });

  it('refuses keys on sockets', async () => {
    const { secret } = await createKey(admin, 'write');
    const socket = io(b.url, { auth: { token: secret }, transports: ['websocket'], reconnection: false, forceNew: true });
    const refusal = await new Promise<{ data?: { code?: string } } | 'connected'>((resolve) => {
      socket.once('connect', () => resolve('connected'));
      socket.once('connect_error', (error) => resolve(error as { data?: { code?: string } }));
    });
    socket.disconnect();
    expect(refusal !== 'connected' && refusal.data?.code).toBe('apiKeys.socketRefused');
  });

  it("takes a demoted owner's admin rights from the key at once, and a deleted owner's key with them", async () => {
    const owner = await createUser(a.url, admin, 'admin');
    const { secret } = await createKey(owner, 'write');
    await request(b.url).get('/api/users').set(bearer(secret)).expect(200);
    await request(a.url).put(`/api/users/${owner.user.id}`).set(admin.auth).send({ role: 'user' }).expect(200);
    await request(b.url).get('/api/users').set(bearer(secret)).expect(403);
    await request(a.url).delete(`/api/users/${owner.user.id}`).set(admin.auth).expect(200);
    await request(b.url).get('/api/monitors').set(bearer(secret)).expect(401);
  });

  it("shows users their own keys and admins everyone's, with the owner", async () => {
    const own = await createKey(member, 'read');
    const others = await request(a.url).get('/api/api-keys').set(viewer.auth).expect(200);
    expect(others.body.keys.map((key: ApiKeyDto) => key.id)).not.toContain(own.key.id);
    await request(a.url).delete(`/api/api-keys/${own.key.id}`).set(viewer.auth).expect(404);
    const all = await request(a.url).get('/api/api-keys').set(admin.auth).expect(200);
    expect(all.body.keys.find((key: ApiKeyDto) => key.id === own.key.id).owner).toEqual({
      id: member.user.id,
      username: member.user.username,
    });
    await request(a.url).delete(`/api/api-keys/${own.key.id}`).set(admin.auth).expect(200);
  });

  it('lets a viewer hold read and metrics keys but no write key', async () => {
    await createKey(viewer, 'read');
    await createKey(viewer, 'metrics');
    const refused = await request(a.url).post('/api/api-keys').set(viewer.auth).send({ name: 'w', scope: 'write' });
    expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 403, code: 'apiKeys.scopeNotAllowed' });
  });

  it.each([
    [{ scope: 'read' }, 'apiKeys.nameRequired'],
    [{ name: ' ', scope: 'read' }, 'apiKeys.nameRequired'],
    [{ name: 'x'.repeat(65), scope: 'read' }, 'apiKeys.nameRequired'],
    [{ name: 'k', scope: 'admin' }, 'apiKeys.scopeInvalid'],
    [{ name: 'k', scope: 'read', expiresInDays: 0 }, 'apiKeys.expiryInvalid'],
    [{ name: 'k', scope: 'read', expiresInDays: 1.5 }, 'apiKeys.expiryInvalid'],
    [{ name: 'k', scope: 'read', expiresInDays: 3651 }, 'apiKeys.expiryInvalid'],
  ])('refuses %j with %s', async (body, code) => {
    const response = await request(a.url).post('/api/api-keys').set(member.auth).send(body).expect(400);
    expect(response.body).toMatchObject({ success: false, code });
  });

  // Last: it leaves this address limited for API keys.
  it('counts bad keys per address and then refuses every key for a while', async () => {
    const { secret } = await createKey(member, 'read');
    let status = 0;
    for (let i = 0; i < 40 && status !== 429; i += 1) {
      status = (
        await request(a.url)
          .get('/api/monitors')
          .set(bearer(`vgk_${String(i).padStart(43, 'x')}`))
      ).status;
    }
    expect(status).toBe(429);
    const limited = await request(a.url).get('/api/monitors').set(bearer(secret));
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toMatch(/^\d+$/);
    // A session is no key: it still works.
    await request(a.url).get('/api/monitors').set(member.auth).expect(200);
  });
});
