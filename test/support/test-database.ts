import { spawn } from 'node:child_process';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';

/** Where one test file keeps its data. */
export interface TestDatabase {
  /** Null when the server should use its own embedded PostgreSQL under `dataDir/pg`. */
  url: string | null;
  dataDir: string;
  /** Environment the server needs for this database. */
  env: Record<string, string>;
  drop(): Promise<void>;
}

/**
 * - `default`: a fresh database on TEST_DATABASE_URL's server (CI), else the server's embedded PostgreSQL;
 * - `embedded`: always the embedded PostgreSQL;
 * - `url`: always a database reachable by URL (a fresh one on TEST_DATABASE_URL, else an embedded PostgreSQL cluster
 *   on a loopback port run by a child process), for tests that share one database between processes or put a proxy
 *   in front of it.
 */
export type DatabaseMode = 'default' | 'embedded' | 'url';

export async function createTestDatabase(mode: DatabaseMode = 'default'): Promise<TestDatabase> {
  const dataDir = await mkdtemp(join(tmpdir(), 'vigil-test-'));
  // Run as root, the embedded PostgreSQL runs as an unprivileged user, who must be able to enter the folder.
  await chmod(dataDir, 0o755);
  const removeDir = () => rm(dataDir, { recursive: true, force: true });
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (mode === 'embedded' || (mode === 'default' && !serverUrl)) {
    return { url: null, dataDir, env: {}, drop: removeDir };
  }
  if (!serverUrl) {
    const cluster = await startClusterProcess(join(dataDir, 'shared'));
    return {
      url: cluster.url,
      dataDir,
      env: {},
      async drop() {
        await cluster.stop();
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

/** An embedded cluster in a child process (test/support/embedded-server.mjs), reachable on a loopback port. */
async function startClusterProcess(dataDir: string): Promise<{ url: string; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [join(__dirname, 'embedded-server.mjs'), dataDir], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('embedded PostgreSQL test server did not start')), 60_000);
    child.once('exit', (code) => reject(new Error(`embedded PostgreSQL test server exited with ${code}`)));
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const ready = /^ready (\S+)$/m.exec(output);
      if (ready) {
        clearTimeout(timer);
        resolve(ready[1]);
      }
    });
  });
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
