import request from 'supertest';
import { Client } from 'pg';
import type { AuditEntryDto, AuditResponse } from '@vigil/proto';
import { createUser, login, registerFirstAdmin, Session } from '../factories/users';
import { createTestDatabase, TestDatabase } from '../support/test-database';
import { startTestApp, TestApp } from '../support/test-app';
import { agentHello } from '../factories/agents';

/** Secrets the spec hands the server: none may appear in any audit entry. */
const BOT_TOKEN = '123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw1';
const BOT_TOKEN_2 = '987654321:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDzzz9';
const BASIC_PASSWORD = 'basic-auth-s3cret';
const HEADER_SECRET = 'header-s3cret-value';
const BODY_SECRET = 'body-s3cret-value';
const NEW_USER_PASSWORD = 'new-user-pass-1';
const WRONG_PASSWORD = 'wrong-password-123';

describe('audit log API', () => {
  let database: TestDatabase;
  let app: TestApp;
  let db: Client;
  let admin: Session;
  let member: Session;

  beforeAll(async () => {
    database = await createTestDatabase('url');
    app = await startTestApp({ database });
    admin = await registerFirstAdmin(app.url);
    member = await createUser(app.url, admin);
    db = new Client({ connectionString: database.url! });
    await db.connect();
  }, 120_000);

  afterAll(async () => {
    await db?.end();
    await app?.stop();
    await database?.drop();
  }, 60_000);

  const api = () => request(app.url);

  async function entries(query: Record<string, string | number> = {}): Promise<AuditEntryDto[]> {
    const { body } = await api()
      .get('/api/audit')
      .query({ pageSize: 500, ...query })
      .set(admin.auth)
      .expect(200);
    return (body as AuditResponse).entries;
  }

  /** The one entry of `action` on this target, newest first, made after the spec started. */
  async function only(action: string, targetId?: number | string): Promise<AuditEntryDto> {
    const found = (await entries({ action })).filter((e) => targetId === undefined || e.target?.id === String(targetId));
    expect(found).toHaveLength(1);
    return found[0];
  }

  it('records a representative change of each kind with actor, address, target and changes', async () => {
    // Monitor: created with basic-auth credentials, a credential header and a body; then edited and deleted.
    const { body: created } = await api()
      .post('/api/monitors')
      .set(admin.auth)
      .send({
        name: 'audited',
        url: `http://audit:${BASIC_PASSWORD}@127.0.0.1:9/health`,
        method: 'POST',
        headers: { Authorization: `Bearer ${HEADER_SECRET}` },
        body: `{"password":"${BODY_SECRET}"}`,
        interval: 300,
      })
      .expect(201);
    const monitorId = created.monitor.id as number;
    const monitorCreated = await only('monitor.created', monitorId);
    expect(monitorCreated).toMatchObject({
      actor: { userId: admin.user.id, username: admin.user.username, apiKeyId: null },
      ip: '127.0.0.1',
      target: { type: 'monitor', id: String(monitorId), name: 'audited' },
    });
    expect(monitorCreated.changes).toMatchObject({ name: { after: 'audited' }, interval: { after: 300 }, body: { secret: true } });

    await api()
      .put(`/api/monitors/${monitorId}`)
      .set(admin.auth)
      .send({ name: 'audited-2', url: `http://audit:${BASIC_PASSWORD}x@127.0.0.1:9/health` })
      .expect(200);
    const monitorUpdated = await only('monitor.updated', monitorId);
    expect(monitorUpdated.changes).toEqual({ name: { before: 'audited', after: 'audited-2' }, url: { secret: true } });

    await api().post(`/api/monitors/${monitorId}/pause`).set(admin.auth).expect(200);
    expect((await only('monitor.paused', monitorId)).changes).toEqual({ active: { before: true, after: false } });
    await api().delete(`/api/monitors/${monitorId}`).set(admin.auth).expect(200);
    expect((await only('monitor.deleted', monitorId)).changes).toMatchObject({ name: { before: 'audited-2' } });

    // Channel with a secret: created, secret changed, deleted.
    const channel = {
      name: 'tg',
      type: 'telegram',
      enabled: true,
      language: 'en-US',
      config: { botToken: BOT_TOKEN, chatId: '-100200300' },
    };
    const { body: savedChannel } = await api().post('/api/notifications/channels').set(member.auth).send(channel).expect(201);
    const channelId = savedChannel.data.id as number;
    const channelCreated = await only('channel.created', channelId);
    expect(channelCreated).toMatchObject({ actor: { userId: member.user.id }, target: { type: 'channel', name: 'tg' } });
    expect(channelCreated.changes).toMatchObject({ 'config.botToken': { secret: true }, 'config.chatId': { after: '-100200300' } });
    await api()
      .put(`/api/notifications/channels/${channelId}`)
      .set(member.auth)
      .send({ ...channel, config: { botToken: BOT_TOKEN_2, chatId: '-100200301' } })
      .expect(200);
    expect((await only('channel.updated', channelId)).changes).toEqual({
      'config.botToken': { secret: true },
      'config.chatId': { before: '-100200300', after: '-100200301' },
    });

    // Notification settings, status page, wall display key, settings.
    await api()
      .post('/api/notifications/settings')
      .set(member.auth)
      .send({ target_type: 'global-monitor', enabled: true, channels: JSON.stringify([channelId]) })
      .expect(200);
    expect((await only('notification_settings.saved', 'global-monitor')).changes).toMatchObject({
      enabled: { after: true },
      channels: { after: [channelId] },
    });
    await api().delete(`/api/notifications/channels/${channelId}`).set(member.auth).expect(200);
    expect((await only('channel.deleted', channelId)).changes).toMatchObject({
      name: { before: 'tg' },
      'config.botToken': { secret: true },
    });

    await api().post('/api/status/config').set(admin.auth).send({ title: 'Acme status', monitors: [], agents: [] }).expect(200);
    expect((await only('status_page.saved')).changes).toMatchObject({ title: { after: 'Acme status' } });

    const { body: key } = await api().post('/api/wall/keys').set(admin.auth).send({ name: 'NOC screen' }).expect(201);
    expect(await only('display_key.created', key.key.id)).toMatchObject({ target: { type: 'display_key', name: 'NOC screen' } });
    await api().delete(`/api/wall/keys/${key.key.id}`).set(admin.auth).expect(200);
    await only('display_key.revoked', key.key.id);

    await api().put('/api/settings').set(admin.auth).send({ allowRegistration: true }).expect(200);
    expect((await only('settings.updated')).changes).toEqual({ allowRegistration: { before: false, after: true } });

    // Users and roles: created, role changed, deleted.
    const { body: user } = await api()
      .post('/api/users')
      .set(admin.auth)
      .send({ username: 'audited-user', password: NEW_USER_PASSWORD, role: 'user' })
      .expect(201);
    const userId = user.user.id as number;
    expect((await only('user.created', userId)).changes).toMatchObject({ username: { after: 'audited-user' }, password: { secret: true } });
    await api().put(`/api/users/${userId}`).set(admin.auth).send({ role: 'admin' }).expect(200);
    expect((await only('user.role_changed', userId)).changes).toEqual({ role: { before: 'user', after: 'admin' } });
    await api().delete(`/api/users/${userId}`).set(admin.auth).expect(200);
    await only('user.deleted', userId);

    // Agents: a registration token, recorded without its value.
    const { body: token } = await api().post('/api/agents/token/generate').set(admin.auth).expect(200);
    const tokenEntry = await only('agent.token_created');
    expect(JSON.stringify(tokenEntry)).not.toContain(token.token);
    // The host enrolling with it: recorded with no actor (nobody signed in did it), its credential never.
    const hello = agentHello('audited-host');
    const { body: enrolled } = await api().post('/api/agents/enroll').send({ token: token.token, hello }).expect(200);
    const agentEntry = await only('agent.created', enrolled.agent_id);
    expect(agentEntry).toMatchObject({ actor: null, target: { type: 'agent', name: 'audited-host' } });
    expect(JSON.stringify(agentEntry)).not.toContain(enrolled.credential);
    await api().post('/api/agents/enroll').send({ token: token.token, hello }).expect(200);
    expect((await only('agent.updated', enrolled.agent_id)).changes).toEqual({ credential: { secret: true } });
  });

  it('records failed and successful sign-ins with the name tried and never the password', async () => {
    await api().post('/api/auth/login').send({ username: member.user.username, password: WRONG_PASSWORD }).expect(401);
    await api().post('/api/auth/login').send({ username: 'nobody-here', password: WRONG_PASSWORD }).expect(401);
    const failed = await entries({ action: 'auth.login_failed' });
    expect(failed.map((e) => e.target?.name)).toEqual(expect.arrayContaining([member.user.username, 'nobody-here']));
    expect(failed.find((e) => e.target?.name === 'nobody-here')).toMatchObject({ actor: null, ip: '127.0.0.1', target: { id: null } });

    await login(app.url, member.user.username, member.password);
    const succeeded = await entries({ action: 'auth.login_succeeded', actor: member.user.id });
    expect(succeeded.length).toBeGreaterThanOrEqual(1);
    expect(succeeded[0]).toMatchObject({ actor: { userId: member.user.id, username: member.user.username }, ip: '127.0.0.1' });
  });

  it('keeps every secret out of every entry', async () => {
    const all = JSON.stringify(await entries());
    for (const secret of [
      BOT_TOKEN,
      BOT_TOKEN_2,
      BASIC_PASSWORD,
      HEADER_SECRET,
      BODY_SECRET,
      NEW_USER_PASSWORD,
      WRONG_PASSWORD,
      member.password,
    ]) {
      expect(all).not.toContain(secret);
    }
    expect(all).not.toMatch(/\$argon2/);
    // And in the table itself, not just in what the API shows.
    const { rows } = await db.query<{ text: string }>(`SELECT coalesce(string_agg(row_to_json(a)::text, ''), '') AS text FROM audit_log a`);
    for (const secret of [BOT_TOKEN, BASIC_PASSWORD, HEADER_SECRET, BODY_SECRET, NEW_USER_PASSWORD, WRONG_PASSWORD]) {
      expect(rows[0].text).not.toContain(secret);
    }
  });

  it('filters by actor, target, action and time, newest first', async () => {
    const byMember = await entries({ actor: member.user.id });
    expect(byMember.length).toBeGreaterThan(0);
    expect(byMember.every((e) => e.actor?.userId === member.user.id)).toBe(true);
    const times = byMember.map((e) => e.at);
    expect([...times].sort().reverse()).toEqual(times);

    const channels = await entries({ target_type: 'channel' });
    expect(new Set(channels.map((e) => e.action))).toEqual(new Set(['channel.created', 'channel.updated', 'channel.deleted']));
    const one = channels[0];
    expect((await entries({ target_type: 'channel', target_id: one.target!.id! })).every((e) => e.target?.id === one.target!.id)).toBe(
      true,
    );

    expect(await entries({ from: new Date(Date.now() + 60_000).toISOString() })).toEqual([]);
    expect((await entries({ to: new Date(Date.now() + 60_000).toISOString() })).length).toBeGreaterThan(0);

    const { body } = await api().get('/api/audit').query({ pageSize: 2, page: 2 }).set(admin.auth).expect(200);
    expect(body).toMatchObject({ success: true, page: 2, pageSize: 2, totalCapped: false });
    expect(body.entries).toHaveLength(2);
    expect(body.total).toBeGreaterThan(4);
  });

  it.each([
    [{ action: 'monitor.exploded' }, 'audit.actionInvalid'],
    [{ target_type: 'planet' }, 'audit.targetTypeInvalid'],
    [{ actor: 'admin' }, 'audit.actorInvalid'],
    [{ actor: '1e3' }, 'audit.actorInvalid'],
    [{ from: 'yesterday' }, 'audit.timeInvalid'],
    [{ from: '2025-02-01T00:00:00Z', to: '2025-01-01T00:00:00Z' }, 'audit.timeInvalid'],
    [{ target_id: 'x'.repeat(65) }, 'audit.targetIdInvalid'],
    [{ pageSize: 0 }, 'request.pageSizeInvalid'],
  ])('refuses the bad filter %j with 400', async (query, code) => {
    const { body } = await api().get('/api/audit').query(query).set(admin.auth).expect(400);
    expect(body).toMatchObject({ success: false, code });
  });

  it('is for admins only', async () => {
    await api().get('/api/audit').expect(401);
    await api().get('/api/audit').set(member.auth).expect(403);
  });

  it('rolls an entry back with its change, and the change with a failed entry', async () => {
    // A change whose audit write fails is not made: one transaction.
    await db.query(`ALTER TABLE audit_log ADD CONSTRAINT audit_spec_refuses CHECK (target_name IS DISTINCT FROM 'refused-by-audit')`);
    try {
      await api()
        .post('/api/monitors')
        .set(admin.auth)
        .send({ name: 'refused-by-audit', url: 'http://127.0.0.1:9/', interval: 300 })
        .expect(500);
    } finally {
      await db.query(`ALTER TABLE audit_log DROP CONSTRAINT audit_spec_refuses`);
    }
    const { rows } = await db.query(`SELECT id FROM monitors WHERE name = 'refused-by-audit'`);
    expect(rows).toEqual([]);

    // A change refused inside the transaction (the last admin cannot be demoted) leaves no entry.
    const before = (await entries({ target_type: 'user', target_id: admin.user.id })).length;
    const refused = await api().put(`/api/users/${admin.user.id}`).set(admin.auth).send({ role: 'user' });
    expect([403, 409]).toContain(refused.status);
    expect(await entries({ target_type: 'user', target_id: admin.user.id })).toHaveLength(before);
  });
});
