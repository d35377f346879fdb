import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { EmbeddedDatabaseError, PostgresBinaries } from './binaries';
import { DatabaseUser } from './run-as';

/** The cluster's superuser and database; the OS account running the postmaster is separate (see run-as). */
export const EMBEDDED_ROLE = 'vigil';
export const EMBEDDED_DATABASE = 'vigil';
/** Unix socket port number (the socket file is `.s.PGSQL.5432` inside the data folder, nothing listens on TCP). */
const SOCKET_PORT = 5432;
/** Longest socket path most systems accept (sun_path is 104–108 bytes with the terminating zero). */
const MAX_SOCKET_PATH = 103;
const PASSWORD_FILE = 'vigil.password';
const CONFIG_FILE = 'vigil.conf';

/**
 * Sized for a 1 GB host: PostgreSQL only touches what it uses, so these are ceilings. Written to `vigil.conf` at every
 * start (included from postgresql.conf); `ALTER SYSTEM` settings in postgresql.auto.conf still win.
 */
export const MEMORY_SETTINGS: Record<string, string> = {
  shared_buffers: '32MB',
  work_mem: '4MB',
  maintenance_work_mem: '32MB',
  effective_cache_size: '256MB',
  temp_buffers: '4MB',
  max_connections: '40',
  max_parallel_workers_per_gather: '0',
  max_worker_processes: '4',
  autovacuum_max_workers: '2',
  max_wal_size: '256MB',
  min_wal_size: '32MB',
  // Disk writes (SD cards, small VPS disks): after each checkpoint the first change to a page logs the whole page, so
  // checkpoints every 15 min (not 5) write a third of those images, compressed (pglz: the only method this build has).
  // Crash recovery replays at most that much WAL, bounded by max_wal_size. full_page_writes stays on (torn pages).
  checkpoint_timeout: '15min',
  wal_compression: 'pglz',
  // Check batches commit without waiting for the flush (monitors.repository.ts): the WAL writer flushes once a second
  // instead of once per batch, so a crash may lose up to about 3 s of check results, never corrupts.
  wal_writer_delay: '1s',
  // No replication of any kind (backups are logical): one process less, and less WAL written.
  wal_level: 'minimal',
  max_wal_senders: '0',
  max_logical_replication_workers: '0',
  huge_pages: 'off',
  jit: 'off',
  log_min_messages: 'fatal',
  log_checkpoints: 'off',
};

/** How a client reaches the cluster, in `pg`'s terms (host is a socket folder in socket mode). */
export interface ConnectionOptions {
  host: string;
  port: number;
  user: string;
  password?: string;
  database: string;
}

export function connectionUrl(options: ConnectionOptions): string {
  const credentials = options.password ? `${options.user}:${encodeURIComponent(options.password)}` : options.user;
  if (options.host.startsWith('/') || options.host.includes('\\')) {
    return `postgres://${credentials}@/${options.database}?host=${encodeURIComponent(options.host)}&port=${options.port}`;
  }
  return `postgres://${credentials}@${options.host}:${options.port}/${options.database}`;
}

export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolvePort(address.port) : reject(new Error('no port'))));
    });
  });
}

export function isCluster(dir: string): boolean {
  return existsSync(join(dir, 'PG_VERSION'));
}

function chownTree(path: string, user: DatabaseUser): void {
  if (user.uid === null || user.gid === null) return;
  chownSync(path, user.uid, user.gid);
}

/** Runs a binary as the database user, throwing its output as the reason when it fails. */
export function runAs(user: DatabaseUser, file: string, args: string[], cwd: string): void {
  try {
    execFileSync(file, args, {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(user.uid !== null ? { uid: user.uid, gid: user.gid! } : {}),
      env: { PATH: process.env.PATH, LC_ALL: 'C', TZ: 'UTC' },
    });
  } catch (error) {
    const output = `${(error as { stderr?: Buffer }).stderr ?? ''}`.trim().split('\n').slice(-3).join(' ');
    throw new EmbeddedDatabaseError(`${file} failed: ${output || (error as Error).message}`);
  }
}

/**
 * Creates the cluster in `dir` (DATA_DIR/pg). initdb works in a sibling folder renamed into place at the end, so an
 * interrupted first start leaves no half-made cluster behind.
 */
export function initCluster(binaries: PostgresBinaries, dir: string, user: DatabaseUser): void {
  const staging = `${dir}.init`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { mode: 0o700 });
  chownTree(staging, user);
  // initdb wants an empty folder, so the password file waits beside it and moves in afterwards.
  const pwfile = `${staging}.password`;
  writeFileSync(pwfile, `${randomBytes(24).toString('base64url')}\n`, { mode: 0o600 });
  chownTree(pwfile, user);
  try {
    runAs(
      user,
      binaries.initdb,
      [
        '-D',
        staging,
        '-U',
        EMBEDDED_ROLE,
        '-E',
        'UTF8',
        '--locale=C',
        '--auth-local=trust',
        '--auth-host=scram-sha-256',
        `--pwfile=${pwfile}`,
        '--no-instructions',
      ],
      binaries.root,
    );
    renameSync(pwfile, join(staging, PASSWORD_FILE));
    const conf = join(staging, 'postgresql.conf');
    writeFileSync(conf, `${readFileSync(conf, 'utf8')}\ninclude_if_exists = '${CONFIG_FILE}'\n`);
    renameSync(staging, dir);
  } finally {
    rmSync(pwfile, { force: true });
  }
}

export function clusterMajor(dir: string): number {
  return Number(readFileSync(join(dir, 'PG_VERSION'), 'utf8').trim());
}

export function clusterPassword(dir: string): string {
  return readFileSync(join(dir, PASSWORD_FILE), 'utf8').trim();
}

/** Rewrites vigil.conf with this release's settings. */
export function writeSettings(dir: string, user: DatabaseUser): void {
  const file = join(dir, CONFIG_FILE);
  const lines = Object.entries(MEMORY_SETTINGS).map(([key, value]) => `${key} = '${value}'`);
  writeFileSync(file, `# Written by Vigil at every start; override with ALTER SYSTEM (postgresql.auto.conf).\n${lines.join('\n')}\n`, {
    mode: 0o600,
  });
  chownTree(file, user);
}

/** Socket folder when the path fits and the platform has Unix sockets; null means listen on a loopback port. */
export function socketFolder(dir: string): string | null {
  if (process.platform === 'win32') return null;
  return join(dir, `.s.PGSQL.${SOCKET_PORT}`).length <= MAX_SOCKET_PATH ? dir : null;
}

/** Whether a process with this pid exists (EPERM: it does, under another user). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The command line of a live process (Linux /proc, or ps elsewhere); null when it cannot be read. */
function commandLine(pid: number): string | null {
  try {
    if (process.platform === 'linux') return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
    return execFileSync('ps', ['-o', 'command=', '-p', String(pid)], { stdio: ['ignore', 'pipe', 'ignore'] }).toString();
  } catch {
    return null;
  }
}

function parentPid(pid: number): number | null {
  try {
    if (process.platform === 'linux') {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    }
    return Number(
      execFileSync('ps', ['-o', 'ppid=', '-p', String(pid)], { stdio: ['ignore', 'pipe', 'ignore'] })
        .toString()
        .trim(),
    );
  } catch {
    return null;
  }
}

export async function waitForExit(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (alive(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}

/** The pid in `dir/postmaster.pid`, or null. */
export function recordedPid(dir: string): number | null {
  try {
    const pid = Number(readFileSync(join(dir, 'postmaster.pid'), 'utf8').split('\n')[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/**
 * Before starting: a postmaster.pid whose process is our postmaster for this folder is left over from a Vigil that
 * was killed (its watchdog may still be stopping it): it is asked to stop and waited for; one whose parent is a
 * live Vigil means two Vigils on one DATA_DIR, which is refused. A pid now used by an unrelated process is a stale
 * file PostgreSQL would refuse to start over, so it is removed. Returns what was done.
 */
export async function clearStalePostmaster(dir: string): Promise<'none' | 'stopped' | 'removed'> {
  const pid = recordedPid(dir);
  if (pid === null || !alive(pid)) return 'none';
  const command = commandLine(pid);
  if (command === null) return 'none';
  if (!command.includes('postgres') || !command.includes(dir)) {
    rmSync(join(dir, 'postmaster.pid'), { force: true });
    return 'removed';
  }
  const parent = parentPid(pid);
  if (parent !== null && parent !== process.pid && parent > 1 && /node/.test(commandLine(parent) ?? '')) {
    throw new EmbeddedDatabaseError(`another Vigil (process ${parent}) is running on ${dir}; stop it first or use another DATA_DIR`);
  }
  process.kill(pid, 'SIGINT');
  if (!(await waitForExit(pid, 30_000))) {
    process.kill(pid, 'SIGKILL');
    await waitForExit(pid, 10_000);
  }
  return 'stopped';
}

/** Folders left from an interrupted first start, and anything that is not a cluster, block initdb. */
export function prepareDataDir(dir: string): void {
  if (existsSync(dir) && !isCluster(dir)) {
    const entries = readdirSync(dir);
    if (entries.length > 0) {
      throw new EmbeddedDatabaseError(`${dir} exists but is not a PostgreSQL cluster; move it away so Vigil can create the database there`);
    }
    rmSync(dir, { recursive: true });
  }
}
