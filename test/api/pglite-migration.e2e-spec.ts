import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import request from 'supertest';
import { connectAgent, enrollAgent, agentReport } from '../factories/agents';
import { createUser, login, registerFirstAdmin } from '../factories/users';
import { embeddedConnection, fingerprint, withClient } from '../support/embedded-cluster';
import { freePort } from '../support/ports';
import { startTargetServer, TargetServer } from '../support/target-server';
import { createTestDatabase, TestDatabase } from '../support/test-database';
import { startTestApp } from '../support/test-app';
import { waitFor } from '../support/wait';

/** PGlite in DATA_DIR/db served the way releases before the embedded PostgreSQL served it (test/support/pglite-release.mjs). */
async function startPgliteRelease(folder: string): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort();
  const child = spawn(process.execPath, [join(__dirname, '../support/pglite-release.mjs'), folder, String(port)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('PGlite did not start')), 60_000);
    child.once('exit', (code) => reject(new Error(`PGlite exited with ${code}`)));
    child.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('ready') && (clearTimeout(timer), resolve()));
  });
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () =>
      new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : (child.once('exit', () => resolve()), child.kill('SIGTERM')))),
  };
}

// Server state the running server rewrites by itself (housekeeping claims in settings, agent presence), compared by count.
const REWRITTEN = ['settings', 'agents'];

describe('a PGlite data folder made by an earlier release', () => {
  let database: TestDatabase;
  let target: TargetServer;
  /** Processes to stop even when an assertion fails midway (a live child would keep jest from exiting). */
  const running: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    [database, target] = await Promise.all([createTestDatabase('embedded'), startTargetServer()]);
  });
  afterAll(async () => {
    for (const stop of running.reverse()) await stop().catch(() => undefined);
    await target?.close();
    await database?.drop();
  });

  it('is copied into the embedded PostgreSQL at first start: nothing lost, the old folder kept', async () => {
    // The earlier release: the server on PGlite in DATA_DIR/db, one connection, fills it with every kind of data.
    const pglite = await startPgliteRelease(join(database.dataDir, 'db'));
    running.push(() => pglite.stop());
    const old = await startTestApp({ database, databaseUrl: pglite.url, env: { DATABASE_POOL_SIZE: '1' } });
    running.push(() => old.stop());
    const admin = await registerFirstAdmin(old.url);
    const member = await createUser(old.url, admin);
    const { body: created } = await request(old.url)
      .post('/api/monitors')
      .set(admin.auth)
      .send({ name: 'site', url: target.url })
      .expect(201);
    const monitorId = created.monitor.id;
    // Two checks: a check-now asked before the check of the creation started covers it, so ask until two are stored.
    await waitFor(
      async () => {
        await request(old.url)
          .post(`/api/monitors/${monitorId}/check`)
          .set(admin.auth)
          .expect((r) => expect(r.status).toBeLessThan(300));
        return (await request(old.url).get(`/api/monitors/${monitorId}/checks`).set(admin.auth)).body.checks?.length ?? 0;
      },
      (n) => n >= 2,
    );
    await request(old.url)
      .post(`/api/monitors/${monitorId}/pause`)
      .set(admin.auth)
      .expect((r) => expect(r.status).toBeLessThan(300));
    const agent = await enrollAgent(old.url, admin, 'db-host');
    const socket = await connectAgent(old.url, agent.credential, 'db-host');
    expect(await socket.timeout(5000).emitWithAck('report', agentReport())).toEqual({ ok: true });
    socket.disconnect();
    await request(old.url)
      .post('/api/notifications/channels')
      .set(admin.auth)
      .send({ name: 'hook', type: 'webhook', enabled: true, config: JSON.stringify({ url: `${target.url}/hook` }) })
      .expect(201);
    await old.stop();
    const before = await withClient(pglite.url, (client) => fingerprint(client, REWRITTEN));
    await pglite.stop();
    expect(Number(before.monitor_checks.split(':')[0])).toBeGreaterThanOrEqual(2);
    expect(Number(before.agent_metrics.split(':')[0])).toBeGreaterThanOrEqual(1);

    // This release, embedded mode, same DATA_DIR.
    const app = await startTestApp({ database });
    try {
      const after = await withClient(embeddedConnection(database.dataDir), (client) => fingerprint(client, REWRITTEN));
      expect(after).toEqual(before);
      expect(existsSync(join(database.dataDir, 'db'))).toBe(false);
      expect(readdirSync(database.dataDir).filter((name) => name.startsWith('db.migrated-'))).toHaveLength(1);

      // Tokens issued by the old release still verify (the generated JWT secret came along), passwords still work.
      await request(app.url).get('/api/auth/me').set(admin.auth).expect(200);
      await login(app.url, member.user.username, member.password);
      const { body: monitors } = await request(app.url).get('/api/monitors').set(admin.auth).expect(200);
      expect(monitors.monitors.map((m: { name: string }) => m.name)).toEqual(['site']);
      const { body: agents } = await request(app.url).get('/api/agents').set(admin.auth).expect(200);
      expect(JSON.stringify(agents)).toContain('db-host');
      const { body: channels } = await request(app.url).get('/api/notifications').set(admin.auth).expect(200);
      expect(JSON.stringify(channels)).toContain('hook');
      // Sequences came along: a new row gets the next id, no clash with copied rows.
      const { body: next } = await request(app.url)
        .post('/api/monitors')
        .set(admin.auth)
        .send({ name: 'next', url: target.url, active: false })
        .expect(201);
      expect(next.monitor.id).toBeGreaterThan(monitorId);

      // A restart does not copy again.
      await app.restart();
      expect(app.output().match(/Copied \d+ rows/g)).toHaveLength(1);
    } finally {
      await app.stop();
    }
  }, 180_000);
});
