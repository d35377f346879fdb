import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from './ports';
import { createTestDatabase, DatabaseMode, TestDatabase } from './test-database';

// TEST_SERVER_DIST lets parallel work sessions each test their own build (e.g. server/dist-a) beside the others'.
const SERVER_MAIN = join(__dirname, '../../server', process.env.TEST_SERVER_DIST ?? 'dist', 'main.js');
const START_TIMEOUT_MS = 45_000;

/** The built server running as its own process, exactly as `npm start` runs it. */
export interface TestApp {
  url: string;
  port: number;
  database: TestDatabase;
  /** Everything the process printed, for assertions on logs. */
  output(): string;
  /** Stops the process with SIGTERM (or the given signal) and waits for it to exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
  restart(): Promise<void>;
  /** Ends the process with SIGKILL, as a crash would: no shutdown hooks run. */
  kill(): Promise<void>;
  /** Stops the process and drops its database (unless it was given a shared one). */
  destroy(): Promise<void>;
}

/**
 * Every fake a spec checks listens on loopback, which USER_OUTBOUND_DENY refuses to users by default. Specs whose users
 * create such monitors (proving what users may do, not what they may reach) start the server with this;
 * test/api/outbound.e2e-spec.ts keeps the default and proves it.
 */
export const USERS_REACH_LOOPBACK = { USER_OUTBOUND_DENY: 'none' } as const;

export interface TestAppOptions {
  env?: Record<string, string>;
  /** Share a database with another app instead of creating one. */
  database?: TestDatabase;
  databaseMode?: DatabaseMode;
  /** Connect through this URL instead of `database.url` (a proxy in front of it). */
  databaseUrl?: string;
}

export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const ownsDatabase = !options.database;
  const database = options.database ?? (await createTestDatabase(options.databaseMode));
  const databaseUrl = options.databaseUrl ?? database.url;
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let child: ChildProcess | null = null;
  let output = '';

  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: database.dataDir,
    LOG_LEVEL: 'warn',
    // Channel grouping waits 10 s by default; specs about other things get messages at once (10 ms), and the grouping
    // specs set their own scale.
    ALERT_SECOND_MS: '1',
    // The client built beside a parallel session's server build (TEST_SERVER_DIST), when one was; else client/dist.
    ...(process.env.TEST_CLIENT_DIR ? { CLIENT_DIR: process.env.TEST_CLIENT_DIR } : {}),
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...database.env,
    ...options.env,
  };

  async function start(): Promise<void> {
    const proc = spawn(process.execPath, [SERVER_MAIN], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    child = proc;
    // VIGIL_TEST_LOGS=1 shows the server's own log while debugging a spec.
    const echo = process.env.VIGIL_TEST_LOGS === '1';
    proc.stdout?.on('data', (chunk) => ((output += chunk), echo && process.stderr.write(chunk)));
    proc.stderr?.on('data', (chunk) => ((output += chunk), echo && process.stderr.write(chunk)));
    const deadline = Date.now() + START_TIMEOUT_MS;
    while (Date.now() < deadline) {
      if (proc.exitCode !== null) throw new Error(`server exited with ${proc.exitCode}:\n${output}`);
      try {
        const response = await fetch(`${url}/api/health`);
        if (response.status === 200) return;
      } catch {
        // not listening yet
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    proc.kill('SIGKILL');
    throw new Error(`server did not become healthy within ${START_TIMEOUT_MS} ms:\n${output}`);
  }

  async function stop(signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
    const proc = child;
    child = null;
    if (!proc || proc.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    proc.kill(signal);
    const timer = setTimeout(() => proc.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  }

  await start();
  return {
    url,
    port,
    database,
    output: () => output,
    stop,
    async restart() {
      await stop();
      await start();
    },
    async kill() {
      const proc = child;
      child = null;
      if (!proc || proc.exitCode !== null) return;
      const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
      proc.kill('SIGKILL');
      await exited;
    },
    async destroy() {
      await stop();
      if (ownsDatabase) await database.drop();
    },
  };
}
