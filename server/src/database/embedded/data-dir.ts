import { chmodSync, existsSync, mkdirSync, readdirSync, realpathSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { EmbeddedDatabaseError } from './binaries';
import { closedFolder, runsAsRoot, unprivilegedAccounts } from './run-as';

export interface DataDirChoice {
  dataDir: string;
  /** The one line said at start when Vigil keeps its data elsewhere than DATA_DIR's default; null otherwise. */
  notice: string | null;
}

/** The nearest folder on the way to `path` that exists (the path itself when it does). */
function nearestExisting(path: string): string {
  let current = resolve(path);
  while (!existsSync(current) && dirname(current) !== current) current = dirname(current);
  return current;
}

/** True when `dir` holds anything (a cluster, a PGlite folder, backups); an unreadable folder counts as holding data. */
function holdsData(dir: string): boolean {
  try {
    return readdirSync(dir).length > 0;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ENOENT';
  }
}

/**
 * The embedded database's folder. DATA_DIR when set (an unreachable one fails later with its own line); with no
 * DATA_DIR, `./data`, unless Vigil runs as root, no database user can enter `./data` and it holds nothing yet: then
 * `fallback` (/var/lib/vigil), so `npm start` works for root in a clone under /root. Data already in `./data` is never
 * left behind silently: the start fails on it instead, saying why.
 */
export function chooseDataDir(dataDir: string, fallback: string | null): DataDirChoice {
  const kept = { dataDir, notice: null };
  if (fallback === null || !runsAsRoot()) return kept;
  const accounts = unprivilegedAccounts();
  // A folder Vigil creates is opened to the database user (makeDataDir), so what counts is the nearest one that exists
  // (where it really is: ./data may be a link to an open folder).
  const existing = realpathSync(nearestExisting(dataDir));
  const closed = accounts.map((account) => closedFolder(existing, account.uid, account.gid));
  if (accounts.length === 0 || closed.includes(null) || holdsData(dataDir)) return kept;
  return {
    dataDir: fallback,
    notice:
      `Vigil runs as root and user ${accounts[0].name} cannot enter ${dataDir} (${closed[0]} is closed to other users); ` +
      `keeping the data in ${fallback} instead (set DATA_DIR to choose the folder)`,
  };
}

/**
 * Creates `dir` and any missing parents, or fails with one line. As root, the folders it creates are opened to be entered (0711, not listed)
 * whatever the umask, since the unprivileged database user must pass through them to `dir/pg`.
 */
export function makeDataDir(dir: string): void {
  const missing: string[] = [];
  for (let current = resolve(dir); !existsSync(current); current = dirname(current)) missing.push(current);
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    throw new EmbeddedDatabaseError(
      `cannot create ${dir} (${(error as NodeJS.ErrnoException).code}); set DATA_DIR to a folder Vigil may write`,
    );
  }
  if (runsAsRoot()) for (const folder of missing) chmodSync(folder, 0o711);
}
