import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { EmbeddedDatabaseError, PostgresBinaries, sharedCopy } from './binaries';

/** The account the postmaster runs under; null fields mean "as this process". */
export interface DatabaseUser {
  name: string | null;
  uid: number | null;
  gid: number | null;
  /** The binaries this account runs (a shared copy when it cannot enter the install folder). */
  binaries: PostgresBinaries;
}

/** Accounts tried, in order, when Vigil runs as root (PostgreSQL refuses to run as root). */
export const UNPRIVILEGED_USERS = ['postgres', 'nobody'];

function lookup(name: string): { uid: number; gid: number } | null {
  try {
    const uid = Number(
      execFileSync('id', ['-u', name], { stdio: ['ignore', 'pipe', 'ignore'] })
        .toString()
        .trim(),
    );
    const gid = Number(
      execFileSync('id', ['-g', name], { stdio: ['ignore', 'pipe', 'ignore'] })
        .toString()
        .trim(),
    );
    return Number.isInteger(uid) && Number.isInteger(gid) && uid > 0 ? { uid, gid } : null;
  } catch {
    return null;
  }
}

/**
 * The first folder from the root down to `path` that `uid`/`gid` may not enter (or read, for `path` itself when
 * `read`); null when every one is open to them. A missing folder counts as closed.
 */
export function closedFolder(path: string, uid: number, gid: number, read = false): string | null {
  const folders: string[] = [];
  for (let current = resolve(path); ; current = dirname(current)) {
    folders.unshift(current);
    if (dirname(current) === current) break;
  }
  for (const folder of folders) {
    let stat;
    try {
      stat = statSync(folder);
    } catch {
      return folder;
    }
    const need = folder === folders[folders.length - 1] && read ? 0o5 : 0o1;
    const bits = stat.uid === uid ? (stat.mode >> 6) & 7 : stat.gid === gid ? (stat.mode >> 3) & 7 : stat.mode & 7;
    if ((bits & need) !== need) return folder;
  }
  return null;
}

/** True when `uid`/`gid` may enter every folder from the root down to `path` (and read it, when `read`). */
export function canReach(path: string, uid: number, gid: number, read = false): boolean {
  return closedFolder(path, uid, gid, read) === null;
}

export function runsAsRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

/** The accounts of UNPRIVILEGED_USERS that exist here, in order. */
export function unprivilegedAccounts(): Array<{ name: string; uid: number; gid: number }> {
  return UNPRIVILEGED_USERS.flatMap((name) => {
    const ids = lookup(name);
    return ids ? [{ name, ...ids }] : [];
  });
}

/**
 * As root, the first existing unprivileged account that can reach both the PostgreSQL binaries and the data folder's
 * parent; otherwise this process's own account. Throws one actionable line when root has no usable account.
 */
export function chooseDatabaseUser(binaries: PostgresBinaries, dataParent: string): DatabaseUser {
  if (!runsAsRoot()) return { name: null, uid: null, gid: null, binaries };
  const accounts = unprivilegedAccounts();
  let blocked: string | null = null;
  for (const { name, ...ids } of accounts) {
    const closed = closedFolder(dataParent, ids.uid, ids.gid);
    if (closed !== null) {
      blocked ??= `user ${name} cannot enter ${dataParent} (${closed} is closed to other users)`;
      continue;
    }
    if (canReach(binaries.root, ids.uid, ids.gid, true)) return { name, ...ids, binaries };
    const copy = sharedCopy(binaries);
    if (canReach(copy.root, ids.uid, ids.gid, true)) return { name, ...ids, binaries: copy };
    blocked ??= `user ${name} cannot read the PostgreSQL binaries in ${copy.root}`;
  }
  const why = blocked ?? `there is no ${UNPRIVILEGED_USERS.join(' or ')} user`;
  throw new EmbeddedDatabaseError(
    `PostgreSQL refuses to run as root and ${why}. Run Vigil as a non-root user, or give DATA_DIR a place the ` +
      `"postgres" system user can enter (create that user with useradd --system postgres if missing), or set DATABASE_URL`,
  );
}
