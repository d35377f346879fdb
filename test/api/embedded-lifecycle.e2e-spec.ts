import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { registerFirstAdmin, Session } from '../factories/users';
import { embeddedConnection, isAlive, postmasterPid, withClient } from '../support/embedded-cluster';
import { freePort } from '../support/ports';
import { startTestApp, TestApp } from '../support/test-app';
import { waitFor } from '../support/wait';

/** The embedded PostgreSQL's life with the server process: always the embedded engine, whatever TEST_DATABASE_URL says. */
describe('embedded PostgreSQL lifecycle', () => {
  let app: TestApp;
  let admin: Session;

  beforeAll(async () => {
    app = await startTestApp({ databaseMode: 'embedded' });
    admin = await registerFirstAdmin(app.url);
  });
  afterAll(() => app?.destroy());

  const dataDir = () => app.database.dataDir;
  const monitorNames = async () => {
    const { body } = await request(app.url).get('/api/monitors').set(admin.auth).expect(200);
    return body.monitors.map((monitor: { name: string }) => monitor.name).sort();
  };
  const addMonitor = (name: string) =>
    request(app.url).post('/api/monitors').set(admin.auth).send({ name, url: 'http://127.0.0.1:9/', active: false }).expect(201);

  it('runs a real PostgreSQL 17 in DATA_DIR/pg, as an unprivileged user when Vigil is root, with a pool of several connections', async () => {
    const pid = postmasterPid(dataDir());
    expect(pid).not.toBeNull();
    expect(isAlive(pid!)).toBe(true);
    if (process.getuid?.() === 0) {
      expect(app.output()).toMatch(/the embedded PostgreSQL runs as user (postgres|nobody)/);
      const uid = Number(/^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
      expect(uid).not.toBe(0);
      expect(statSync(join(dataDir(), 'pg')).uid).toBe(uid);
    }
    await withClient(embeddedConnection(dataDir()), async (client) => {
      expect((await client.query('SHOW server_version_num')).rows[0].server_version_num).toMatch(/^17/);
      // Concurrent requests use more than one connection: the single-connection rule of PGlite is gone.
      await Promise.all(Array.from({ length: 24 }, () => request(app.url).get('/api/monitors').set(admin.auth).expect(200)));
      const { rows } = await client.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = 'vigil' AND backend_type = 'client backend' AND pid <> pg_backend_pid()`,
      );
      expect(rows[0].n).toBeGreaterThan(1);
    });
  });

  it.each<NodeJS.Signals>(['SIGTERM', 'SIGINT'])('stops the postmaster when the server gets %s', async (signal) => {
    const pid = postmasterPid(dataDir())!;
    await app.stop(signal);
    expect(isAlive(pid)).toBe(false);
    expect(postmasterPid(dataDir())).toBeNull();
    await app.restart();
    expect(postmasterPid(dataDir())).not.toBe(pid);
  });

  it('stops the postmaster when the server is killed with -9, and the next start works', async () => {
    await addMonitor('before-kill');
    const pid = postmasterPid(dataDir())!;
    await app.kill();
    // No shutdown hook ran: the watchdog's pipe closed and it asked the postmaster to stop.
    await waitFor(
      async () => isAlive(pid),
      (alive) => !alive,
      15_000,
    );
    await app.restart();
    expect(await monitorNames()).toContain('before-kill');
  });

  it('restarts a postmaster killed with -9 while the server runs', async () => {
    const pid = postmasterPid(dataDir())!;
    process.kill(pid, 'SIGKILL');
    await waitFor(
      async () => postmasterPid(dataDir()),
      (next) => next !== null && next !== pid && isAlive(next),
      30_000,
    );
    await waitFor(
      async () => await addMonitorStatus('after-postmaster-kill'),
      (status) => status === 201,
      30_000,
    );
    expect(await monitorNames()).toContain('after-postmaster-kill');
    expect(app.output()).toMatch(/exited unexpectedly/);
  });

  async function addMonitorStatus(name: string): Promise<number> {
    const names = await request(app.url).get('/api/monitors').set(admin.auth);
    if (names.status === 200 && names.body.monitors.some((m: { name: string }) => m.name === name)) return 201;
    const response = await request(app.url).post('/api/monitors').set(admin.auth).send({ name, url: 'http://127.0.0.1:9/', active: false });
    return response.status;
  }

  it('starts over a stale postmaster.pid after both the postmaster and the server were killed with -9', async () => {
    const pid = postmasterPid(dataDir())!;
    process.kill(pid, 'SIGKILL');
    await app.kill();
    await waitFor(
      async () => isAlive(pid),
      (alive) => !alive,
      10_000,
    );
    expect(postmasterPid(dataDir())).toBe(pid);
    await app.restart();
    expect(await monitorNames()).toEqual(expect.arrayContaining(['after-postmaster-kill', 'before-kill']));
  });

  it('starts over a postmaster.pid naming a live process that is not PostgreSQL (a reused pid)', async () => {
    await app.stop();
    // This test process stands for whatever now holds the recorded pid.
    writeFileSync(join(dataDir(), 'pg', 'postmaster.pid'), `${process.pid}\n${join(dataDir(), 'pg')}\n`);
    await app.restart();
    expect(await monitorNames()).toContain('before-kill');
  });
});

describe('embedded PostgreSQL when it cannot run', () => {
  it('as root with a DATA_DIR no unprivileged user can enter, stops with one line saying what to do', async () => {
    if (process.getuid?.() !== 0) return;
    const closed = mkdtempSync(join(tmpdir(), 'vigil-closed-'));
    chmodSync(closed, 0o700);
    try {
      const result = spawnSync(process.execPath, [join(__dirname, '../../server/dist/main.js')], {
        env: {
          PATH: process.env.PATH,
          HOST: '127.0.0.1',
          PORT: String(await freePort()),
          DATA_DIR: join(closed, 'data'),
          LOG_LEVEL: 'warn',
        },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(result.status).toBe(1);
      const lines = result.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^Vigil cannot start the embedded database: PostgreSQL refuses to run as root .*set DATABASE_URL$/);
    } finally {
      rmSync(closed, { recursive: true, force: true });
    }
  });
});
