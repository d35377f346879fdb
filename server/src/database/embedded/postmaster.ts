import { Logger } from '@nestjs/common';
import { ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import { EmbeddedDatabaseError, PostgresBinaries } from './binaries';
import {
  clearStalePostmaster,
  clusterPassword,
  ConnectionOptions,
  connectionUrl,
  EMBEDDED_DATABASE,
  EMBEDDED_ROLE,
  freeLoopbackPort,
  recordedPid,
  socketFolder,
  waitForExit,
  writeSettings,
} from './cluster';
import { DatabaseUser } from './run-as';

export interface EmbeddedPostgres {
  /** For TypeORM and `pg` (host is the socket folder in socket mode). */
  connection: ConnectionOptions;
  url: string;
  /** The postmaster's pid while it runs. */
  pid(): number | null;
  stop(): Promise<void>;
}

const READY_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 20_000;

/** True once the postmaster wrote "ready" as the status line of postmaster.pid (PostgreSQL 10 and later). */
function markedReady(dir: string): boolean {
  try {
    return readFileSync(join(dir, 'postmaster.pid'), 'utf8').split('\n')[7]?.trim() === 'ready';
  } catch {
    return false;
  }
}

/**
 * Waits until the postmaster accepts a connection, or fails with what it printed if it exits first. Connecting only
 * after postmaster.pid says "ready" keeps "the database system is starting up" out of the log.
 */
async function waitReady(dir: string, connection: ConnectionOptions, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new EmbeddedDatabaseError(`PostgreSQL exited while starting: ${output().trim().split('\n').slice(-3).join(' ')}`);
    }
    if (markedReady(dir) && recordedPid(dir) === child.pid) {
      const client = new Client({ ...connection, database: 'postgres' });
      client.on('error', () => undefined);
      try {
        await client.connect();
        await client.end();
        return;
      } catch {
        await client.end().catch(() => undefined);
      }
    }
    if (Date.now() > deadline) throw new EmbeddedDatabaseError(`PostgreSQL did not accept connections within ${READY_TIMEOUT_MS / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

async function ensureDatabase(connection: ConnectionOptions): Promise<void> {
  const client = new Client({ ...connection, database: 'postgres' });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [EMBEDDED_DATABASE]);
    if (!rowCount) await client.query(`CREATE DATABASE ${EMBEDDED_DATABASE}`);
  } finally {
    await client.end();
  }
}

/**
 * One postmaster child, restarted when it dies on its own. A small `sh` watchdog holds a pipe from this process:
 * when Vigil dies without running any hook (kill -9, OOM), the pipe closes and the watchdog asks the postmaster for a
 * fast shutdown, so no orphan keeps the data folder. Both run in their own process group, so a terminal's Ctrl-C
 * reaches Vigil only, which then stops them in order.
 */
export class Postmaster {
  private child: ChildProcess | null = null;
  private watchdog: ChildProcess | null = null;
  private stopping = false;
  /** Set once the postmaster has been ready: from then on an exit of its own is restarted. */
  private supervising = false;
  private restarts = 0;
  private output = '';
  private readonly logger = new Logger('EmbeddedPostgres');

  constructor(
    private readonly binaries: PostgresBinaries,
    private readonly dir: string,
    private readonly user: DatabaseUser,
    private readonly args: string[],
    private readonly connection: ConnectionOptions,
  ) {
    // An exit without shutdown hooks (process.exit after a fatal error) still stops the postmaster.
    process.once('exit', () => this.running() && this.signal('SIGINT'));
  }

  pid(): number | null {
    return this.running() ? this.child!.pid! : null;
  }

  private running(): boolean {
    return !!this.child?.pid && this.child.exitCode === null && this.child.signalCode === null;
  }

  async start(): Promise<void> {
    // A postmaster killed with -9 leaves backends that exit on their own a moment later; until then its shared
    // memory is in use and a new postmaster refuses to start, so a few quick retries.
    for (let attempt = 1; ; attempt += 1) {
      await clearStalePostmaster(this.dir);
      const child = this.spawnPostmaster();
      try {
        await waitReady(this.dir, this.connection, child, () => this.output);
        this.restarts = 0;
        this.supervising = true;
        return;
      } catch (error) {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
        if (attempt >= 5 || !/already exists|still in use|could not bind|lock file/i.test(this.output)) throw error;
        await new Promise((resolve) => setTimeout(resolve, attempt * 500));
      }
    }
  }

  private spawnPostmaster(): ChildProcess {
    this.output = '';
    const ids = this.user.uid !== null ? { uid: this.user.uid, gid: this.user.gid! } : {};
    const detached = process.platform !== 'win32';
    const child = spawn(this.binaries.postgres, ['-D', this.dir, ...this.args], {
      cwd: this.dir,
      stdio: ['ignore', 'ignore', 'pipe'],
      detached,
      env: { PATH: process.env.PATH, LC_ALL: 'C', TZ: 'UTC' },
      ...ids,
    });
    this.child = child;
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      this.output = (this.output + chunk).slice(-4000);
      // Only FATAL and PANIC reach stderr (log_min_messages); routine lines stay quiet.
      for (const line of chunk.split('\n')) if (line.trim()) this.logger.error(line.trim());
    });
    child.once('exit', (code, signal) => this.exited(child, code, signal));
    if (process.platform !== 'win32' && child.pid) {
      this.watchdog?.kill('SIGKILL');
      this.watchdog = spawn('/bin/sh', ['-c', 'read _; kill -INT "$0"', String(child.pid)], {
        stdio: ['pipe', 'ignore', 'ignore'],
        detached,
        ...ids,
      });
      this.watchdog.on('error', () => undefined);
    }
    return child;
  }

  private exited(child: ChildProcess, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.child !== child) return;
    this.watchdog?.kill('SIGKILL');
    this.watchdog = null;
    if (this.stopping || !this.supervising) return;
    this.supervising = false;
    this.logger.error(`Embedded PostgreSQL exited unexpectedly (${signal ?? `code ${code}`}); restarting it`);
    this.restartLater();
  }

  /** Restarts with a growing pause (0.5 s doubling to 30 s) until it works or Vigil stops. */
  private restartLater(): void {
    this.restarts += 1;
    const delay = Math.min(30_000, 250 * 2 ** Math.min(this.restarts, 7));
    setTimeout(() => {
      if (this.stopping) return;
      this.start().catch((error: Error) => {
        this.logger.error(`Embedded PostgreSQL did not restart: ${error.message}`);
        this.restartLater();
      });
    }, delay).unref();
  }

  private signal(signal: NodeJS.Signals): void {
    try {
      if (this.child?.pid) process.kill(this.child.pid, signal);
    } catch {
      // already gone
    }
  }

  async stop(): Promise<void> {
    this.stopping = true;
    const pid = this.pid();
    if (!pid) return;
    // SIGINT is PostgreSQL's fast shutdown: open sessions are ended, everything committed is on disk.
    this.signal('SIGINT');
    if (!(await waitForExit(pid, STOP_TIMEOUT_MS))) {
      this.signal('SIGQUIT');
      await waitForExit(pid, 5_000);
    }
    this.watchdog?.kill('SIGKILL');
  }
}

/**
 * Runs the cluster in `dir` with `binaries` until stopped: its settings written, the postmaster started and supervised,
 * the `vigil` database present. Listens on a Unix socket inside `dir`, or a random loopback port when `tcp` is set or
 * the socket path would not fit.
 */
export async function runCluster(binaries: PostgresBinaries, dir: string, user: DatabaseUser, tcp = false): Promise<EmbeddedPostgres> {
  const logger = new Logger('EmbeddedPostgres');
  writeSettings(dir, user);

  const socket = tcp ? null : socketFolder(dir);
  const port = socket ? 5432 : await freeLoopbackPort();
  const args = socket
    ? ['-c', 'listen_addresses=', '-c', `unix_socket_directories=${socket}`, '-c', 'unix_socket_permissions=0700']
    : ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='];
  args.push('-c', `port=${port}`);
  const connection: ConnectionOptions = socket
    ? { host: socket, port, user: EMBEDDED_ROLE, database: EMBEDDED_DATABASE }
    : { host: '127.0.0.1', port, user: EMBEDDED_ROLE, password: clusterPassword(dir), database: EMBEDDED_DATABASE };

  const postmaster = new Postmaster(binaries, dir, user, args, connection);
  await postmaster.start();
  await ensureDatabase(connection);
  logger.log(`Embedded PostgreSQL ready in ${dir} (${socket ? 'Unix socket' : `127.0.0.1:${port}`})`);
  return {
    connection,
    url: connectionUrl(connection),
    pid: () => postmaster.pid(),
    stop: () => postmaster.stop(),
  };
}
