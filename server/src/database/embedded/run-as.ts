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

/** True when `uid`/`gid` may enter every folder from the root down to `path` (and read it, when `read`). */
export function canReach(path: string, uid: number, gid: number, read = false): boolean {
  let current = resolve(path);
  let leaf = true;
  for (;;) {
    let stat;
    try {
      stat = statSync(current);
    } catch {
      return false;
    }
    const need = leaf && read ? 0o5 : 0o1;
    const bits = stat.uid === uid ? (stat.mode >> 6) & 7 : stat.gid === gid ? (stat.mode >> 3) & 7 : stat.mode & 7;
    if ((bits & need) !== need) return false;
    const parent = dirname(current);
    if (parent === current) return true;
    current = parent;
    leaf = false;
  }
}

/**
 * As root, the first existing unprivileged account that can reach both the PostgreSQL binaries and the data folder's
 * parent; otherwise this process's own account. Throws one actionable line when root has no usable account.
 */
export function chooseDatabaseUser(binaries: PostgresBinaries, dataParent: string): DatabaseUser {
  if (typeof process.getuid !== 'function' || process.getuid() !== 0) return { name: null, uid: null, gid: null, binaries };
  const unreachable: string[] = [];
  for (const name of UNPRIVILEGED_USERS) {
    const ids = lookup(name);
    if (!ids) continue;
    if (!canReach(dataParent, ids.uid, ids.gid)) {
      unreachable.push(name);
      continue;
    }
    if (canReach(binaries.root, ids.uid, ids.gid, true)) return { name, ...ids, binaries };
    const copy = sharedCopy(binaries);
    if (canReach(copy.root, ids.uid, ids.gid, true)) return { name, ...ids, binaries: copy };
    unreachable.push(name);
  }
  const why = unreachable.length
    ? `user ${unreachable[0]} cannot enter ${dataParent} (a parent folder is closed to other users)`
    : `there is no ${UNPRIVILEGED_USERS.join(' or ')} user`;
  throw new EmbeddedDatabaseError(
    `PostgreSQL refuses to run as root and ${why}. Run Vigil as a non-root user, or give DATA_DIR a place the ` +
      `"postgres" system user can enter (create that user with useradd --system postgres if missing), or set DATABASE_URL`,
  );
}
