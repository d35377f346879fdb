import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import request from 'supertest';
import { agentReport, connectAgent, enrollAgent } from '../factories/agents';
import { createUser, login, registerFirstAdmin } from '../factories/users';
import { embeddedConnection, fingerprint, withClient } from '../support/embedded-cluster';
import { startTargetServer, TargetServer } from '../support/target-server';
import { createTestDatabase, TestDatabase } from '../support/test-database';
import { startTestApp, TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';

const ROOT = join(__dirname, '../..');

/** `npm run backup` / `npm run restore` as an operator runs them, with DATA_DIR naming the installation. */
function database(command: 'backup' | 'restore', dataDir: string, file: string) {
  const result = spawnSync('npm', ['run', '--silent', command, '--', file], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe('npm run backup / restore (embedded database)', () => {
  let source: TestDatabase;
  let app: TestApp;
  let target: TargetServer;

  beforeAll(async () => {
    target = await startTargetServer();
    // A short grace period: the agent below goes inactive (its last transition) quickly once disconnected.
    app = await startTestApp({ databaseMode: 'embedded', env: { AGENT_GRACE_SECONDS: '1' } });
    source = app.database;
  });
  afterAll(async () => {
    await app?.destroy();
    await target?.close();
  });

  it('a backup taken while Vigil runs restores to an equal database', async () => {
    const admin = await registerFirstAdmin(app.url);
    const member = await createUser(app.url, admin);
    const { body } = await request(app.url).post('/api/monitors').set(admin.auth).send({ name: 'site', url: target.url }).expect(201);
    await waitFor(
      async () => (await request(app.url).get(`/api/monitors/${body.monitor.id}/checks`).set(admin.auth)).body.checks?.length ?? 0,
      (n) => n >= 1,
    );
    await request(app.url)
      .post(`/api/monitors/${body.monitor.id}/pause`)
      .set(admin.auth)
      .expect((r) => expect(r.status).toBeLessThan(300));
    const agent = await enrollAgent(app.url, admin, 'backup-host');
    const socket = await connectAgent(app.url, agent.credential, 'backup-host');
    expect(await socket.timeout(5000).emitWithAck('report', agentReport())).toEqual({ ok: true });
    socket.disconnect();
    await waitFor(
      async () => (await request(app.url).get(`/api/agents/${agent.agentId}`).set(admin.auth)).body,
      (b) => JSON.stringify(b).includes('"inactive"'),
      20_000,
    );
    await request(app.url)
      .post('/api/notifications/channels')
      .set(admin.auth)
      .send({ name: 'hook', type: 'webhook', enabled: true, config: JSON.stringify({ url: `${target.url}/hook` }) })
      .expect(201);

    const file = join(source.dataDir, 'backup.json.gz');
    // The running server stores reports and transitions a moment after they happen: the comparison starts once the
    // database has stopped changing (the backup must not change it either), so both sides are the same moment.
    const read = () => withClient(embeddedConnection(source.dataDir), (client) => fingerprint(client, ['settings', 'agents']));
    let previous = await read();
    const before = await waitFor(
      async () => {
        await new Promise((resolve) => setTimeout(resolve, 1000));
        const [last, current] = [previous, await read()];
        previous = current;
        return JSON.stringify(last) === JSON.stringify(current) ? current : null;
      },
      (value) => value !== null && value.agent_metrics !== '0:',
      30_000,
    );
    const taken = database('backup', source.dataDir, file);
    expect(taken.output).toMatch(/Backup written to/);
    expect(taken.status).toBe(0);
    expect(await read()).toEqual(before);

    // Restoring over the running installation is refused rather than done under its feet.
    const refused = database('restore', source.dataDir, file);
    expect(refused.status).not.toBe(0);
    expect(refused.output).toMatch(/Vigil is running on .*; stop it before restoring/);

    // Restored into a new installation: every table equal; that installation then serves the same accounts.
    const copy = await createTestDatabase('embedded');
    try {
      const restored = database('restore', copy.dataDir, file);
      expect(restored.output).toMatch(/row counts verified/);
      expect(restored.status).toBe(0);
      const second = await startTestApp({ database: copy });
      try {
        const after = await withClient(embeddedConnection(copy.dataDir), (client) => fingerprint(client, ['settings', 'agents']));
        expect(after).toEqual(before);
        await request(second.url).get('/api/auth/me').set(admin.auth).expect(200);
        await login(second.url, member.user.username, member.password);
        const { body: monitors } = await request(second.url).get('/api/monitors').set(admin.auth).expect(200);
        expect(monitors.monitors.map((m: { name: string }) => m.name)).toEqual(['site']);
      } finally {
        await second.stop();
      }
    } finally {
      await copy.drop();
    }
  }, 240_000);
});
