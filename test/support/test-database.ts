import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { freePort } from './ports';

/** Where one test file keeps its data. */
export interface TestDatabase {
  /** Null when the server should use its own embedded PGlite under `dataDir`. */
  url: string | null;
  dataDir: string;
  /** Environment the server needs for this database (one connection for a PGlite socket server). */
  env: Record<string, string>;
  drop(): Promise<void>;
}

/**
 * - `default`: a fresh database on TEST_DATABASE_URL's server (CI), else the server's embedded PGlite;
 * - `embedded`: always the embedded PGlite;
 * - `url`: always a database reachable by URL (a fresh one on TEST_DATABASE_URL, else a PGlite socket server in a
 *   child process), for tests that share one database between processes or put a proxy in front of it.
 */
export type DatabaseMode = 'default' | 'embedded' | 'url';

export async function createTestDatabase(mode: DatabaseMode = 'default'): Promise<TestDatabase> {
  const dataDir = await mkdtemp(join(tmpdir(), 'vigil-test-'));
  const removeDir = () => rm(dataDir, { recursive: true, force: true });
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (mode === 'embedded' || (mode === 'default' && !serverUrl)) {
    return { url: null, dataDir, env: {}, drop: removeDir };
  }
  if (!serverUrl) {
    const pglite = await startPgliteServer();
    return {
      url: pglite.url,
      dataDir,
      // pglite-socket interleaves concurrent connections' messages; the server must use one, as in embedded mode.
      env: { DATABASE_POOL_SIZE: '1' },
      async drop() {
        await pglite.stop();
        await removeDir();
      },
    };
  }
  const name = `vigil_test_${process.pid}_${Date.now().toString(36)}_${Math.floor(Math.random() * 1e6)}`;
  await withAdmin(serverUrl, (client) => client.query(`CREATE DATABASE "${name}"`));
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    dataDir,
    env: {},
    async drop() {
      await withAdmin(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
      await removeDir();
    },
  };
}

async function withAdmin<T>(url: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function startPgliteServer(): Promise<{ url: string; stop(): Promise<void> }> {
  const port = await freePort();
  const child = spawn(process.execPath, [join(__dirname, 'pglite-server.mjs'), String(port)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('PGlite test server did not start')), 30_000);
    child.once('exit', (code) => reject(new Error(`PGlite test server exited with ${code}`)));
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('ready')) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
