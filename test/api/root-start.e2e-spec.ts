import { ChildProcess, spawn } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { login, registerFirstAdmin } from '../factories/users';
import { postmasterPid } from '../support/embedded-cluster';
import { freePort } from '../support/ports';

const MAIN = join(__dirname, '..', '..');
const DIST = join(MAIN, 'server', process.env.TEST_SERVER_DIST ?? 'dist');
const START_TIMEOUT_MS = 60_000;
const asRoot = process.getuid?.() === 0;

interface Run {
  url: string;
  child: ChildProcess;
  output(): string;
  /** Resolves with the exit code once the process ends. */
  exited: Promise<number | null>;
}

/**
 * `npm start` as a newcomer runs it: the built server from a clone whose folder is closed to other users (a clone under
 * /root), started from the clone with no DATABASE_URL, under umask 077. The clone holds its own copy of the build and
 * links to node_modules, so the PostgreSQL binaries are found inside the closed folder too.
 */
describe('starting as root from a clone in a closed folder', () => {
  let base: string;
  let clone: string;
  let fallback: string;
  let runs: Run[] = [];

  beforeAll(() => {
    base = mkdtempSync(join(tmpdir(), 'vigil-root-start-'));
    chmodSync(base, 0o755);
    const home = join(base, 'root');
    mkdirSync(home, { mode: 0o700 });
    chmodSync(home, 0o700);
    clone = join(home, 'vigil');
    mkdirSync(join(clone, 'server'), { recursive: true });
    cpSync(DIST, join(clone, 'server', 'dist'), { recursive: true });
    cpSync(join(MAIN, 'server', 'package.json'), join(clone, 'server', 'package.json'));
    symlinkSync(join(MAIN, 'node_modules'), join(clone, 'node_modules'));
    // npm may install a workspace's own copy of a package beside it (server/node_modules), as a real clone has it.
    if (existsSync(join(MAIN, 'server', 'node_modules')))
      symlinkSync(join(MAIN, 'server', 'node_modules'), join(clone, 'server', 'node_modules'));
    // Where the system's temporary folder would hold the root-owned copy of the binaries; fresh for this run.
    mkdirSync(join(base, 'tmp'), { mode: 0o755 });
    fallback = join(base, 'var-lib-vigil');
  });

  afterEach(async () => {
    for (const run of runs) {
      if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill('SIGTERM');
      await run.exited;
    }
    runs = [];
  });
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  async function start(env: Record<string, string> = {}): Promise<Run> {
    const port = await freePort();
    const child = spawn('/bin/sh', ['-c', 'umask 077 && exec "$0" "$1"', process.execPath, join(clone, 'server', 'dist', 'main.js')], {
      cwd: clone,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        TMPDIR: join(base, 'tmp'),
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        FALLBACK_DATA_DIR: fallback,
        CLIENT_DIR: process.env.TEST_CLIENT_DIR ?? join(MAIN, 'client', 'dist'),
        AGENT_DIR: join(MAIN, 'agent'),
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const echo = process.env.VIGIL_TEST_LOGS === '1';
    for (const stream of [child.stdout!, child.stderr!])
      stream.on('data', (chunk) => ((output += chunk), echo && process.stderr.write(chunk)));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const run = { url: `http://127.0.0.1:${port}`, child, output: () => output, exited };
    runs.push(run);
    return run;
  }

  async function healthy(run: Run): Promise<void> {
    const deadline = Date.now() + START_TIMEOUT_MS;
    while (Date.now() < deadline) {
      if (run.child.exitCode !== null) throw new Error(`server exited with ${run.child.exitCode}:\n${run.output()}`);
      const status = await fetch(`${run.url}/api/health`).then(
        (response) => response.status,
        () => 0,
      );
      if (status === 200) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`server not healthy within ${START_TIMEOUT_MS} ms:\n${run.output()}`);
  }

  async function stop(run: Run): Promise<void> {
    run.child.kill('SIGTERM');
    await run.exited;
  }

  /** Every line a start that failed printed. */
  async function failure(run: Run): Promise<string[]> {
    expect(await run.exited).not.toBe(0);
    return run
      .output()
      .split('\n')
      .filter((line) => line.trim() !== '');
  }

  it('keeps the data in the fallback folder, says so in one line, and works across restarts', async () => {
    const first = await start();
    await healthy(first);
    const admin = await registerFirstAdmin(first.url);
    await stop(first);
    const second = await start();
    await healthy(second);
    await login(second.url, admin.user.username, admin.password);
    await request(second.url).get('/api/monitors').set(admin.auth).expect(200);

    const notices = second
      .output()
      .split('\n')
      .filter((line) => line.includes('keeping the data in'));
    if (!asRoot) {
      // Not root: the database runs as this account, which may enter its own closed folder, so ./data is used.
      expect(notices).toEqual([]);
      expect(existsSync(join(clone, 'data', 'pg', 'PG_VERSION'))).toBe(true);
      expect(existsSync(fallback)).toBe(false);
      return;
    }
    expect(notices).toHaveLength(1);
    expect(notices[0]).toContain(
      `cannot enter ${join(clone, 'data')} (${join(base, 'root')} is closed to other users); keeping the data in ${fallback} instead`,
    );
    expect(existsSync(join(clone, 'data'))).toBe(false);
    // Created by Vigil under umask 077, yet open to the database user, who owns the cluster inside it.
    expect(statSync(fallback).mode & 0o777).toBe(0o711);
    const pid = postmasterPid(fallback)!;
    const uid = Number(/^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
    expect(uid).not.toBe(0);
    expect(statSync(join(fallback, 'pg')).uid).toBe(uid);
    // The binaries inside the closed clone are out of the database user's reach: it runs a root-owned copy.
    const [copy] = readdirSync(join(base, 'tmp')).filter((name) => name.startsWith('vigil-postgres-'));
    expect(readlinkSync(`/proc/${pid}/exe`)).toBe(join(base, 'tmp', copy, 'bin', 'postgres'));
  });

  it('stops with one clear line when an explicit DATA_DIR cannot be used', async () => {
    let dataDir: string;
    if (asRoot) {
      dataDir = join(base, 'root', 'explicit-data');
    } else {
      // Not root: a DATA_DIR this account cannot create.
      mkdirSync(join(base, 'locked'), { mode: 0o500 });
      dataDir = join(base, 'locked', 'data');
    }
    const run = await start({ DATA_DIR: dataDir, FALLBACK_DATA_DIR: join(base, 'unused-fallback') });
    const lines = await failure(run);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Vigil cannot start the embedded database: /);
    expect(lines[0]).toContain(
      asRoot ? `cannot enter ${dataDir} (${join(base, 'root')} is closed to other users)` : `cannot create ${dataDir} (EACCES)`,
    );
    expect(existsSync(join(base, 'unused-fallback'))).toBe(false);
  });

  it('never moves away from data already in ./data', async () => {
    const data = join(clone, 'data');
    mkdirSync(join(data, 'backups'), { recursive: true });
    writeFileSync(join(data, 'backups', 'vigil-20260101-000000.json.gz'), '');
    const unused = join(base, 'unused-fallback-2');
    const run = await start({ FALLBACK_DATA_DIR: unused });
    if (asRoot) {
      const lines = await failure(run);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(new RegExp(`^Vigil cannot start the embedded database: .*cannot enter ${data} `));
    } else {
      await healthy(run);
      expect(existsSync(join(data, 'pg', 'PG_VERSION'))).toBe(true);
    }
    expect(existsSync(unused)).toBe(false);
    rmSync(data, { recursive: true, force: true });
  });
});
