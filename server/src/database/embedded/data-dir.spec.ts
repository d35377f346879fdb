import { chmodSync, mkdirSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chooseDataDir, makeDataDir } from './data-dir';
import { runsAsRoot, unprivilegedAccounts } from './run-as';

// The choice only exists for root with a database account; elsewhere DATA_DIR is always used as given.
const rootWithAccount = runsAsRoot() && unprivilegedAccounts().length > 0;

describe('the embedded database folder', () => {
  let root: string;
  let closed: string;
  let fallback: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'vigil-data-dir-'));
    chmodSync(root, 0o755);
    closed = join(root, 'home');
    mkdirSync(closed, { mode: 0o700 });
    chmodSync(closed, 0o700);
    fallback = join(root, 'var-lib-vigil');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('moves to the fallback, saying why, when ./data is behind a closed folder and holds nothing', () => {
    const sut = chooseDataDir(join(closed, 'vigil', 'data'), fallback);
    if (!rootWithAccount) return expect(sut).toEqual({ dataDir: join(closed, 'vigil', 'data'), notice: null });
    expect(sut.dataDir).toBe(fallback);
    expect(sut.notice).toBe(
      `Vigil runs as root and user ${unprivilegedAccounts()[0].name} cannot enter ${join(closed, 'vigil', 'data')} ` +
        `(${closed} is closed to other users); keeping the data in ${fallback} instead (set DATA_DIR to choose the folder)`,
    );
  });

  it('moves to the fallback when the empty ./data itself is closed', () => {
    const data = join(closed, 'data');
    mkdirSync(data, { mode: 0o700 });
    expect(chooseDataDir(data, fallback).dataDir).toBe(rootWithAccount ? fallback : data);
  });

  it('keeps a ./data that links to a folder the database user can enter', () => {
    mkdirSync(join(root, 'srv'), { mode: 0o755 });
    symlinkSync(join(root, 'srv'), join(closed, 'data'));
    expect(chooseDataDir(join(closed, 'data'), fallback)).toEqual({ dataDir: join(closed, 'data'), notice: null });
  });

  it('keeps ./data when it already holds data, even behind a closed folder', () => {
    const data = join(closed, 'data');
    mkdirSync(join(data, 'pg'), { recursive: true });
    writeFileSync(join(data, 'pg', 'PG_VERSION'), '17\n');
    expect(chooseDataDir(data, fallback)).toEqual({ dataDir: data, notice: null });
  });

  it('keeps a ./data the database user can reach, and an explicit DATA_DIR (no fallback) wherever it is', () => {
    chmodSync(closed, 0o711);
    expect(chooseDataDir(join(closed, 'data'), fallback)).toEqual({ dataDir: join(closed, 'data'), notice: null });
    chmodSync(closed, 0o700);
    expect(chooseDataDir(join(closed, 'data'), null)).toEqual({ dataDir: join(closed, 'data'), notice: null });
  });

  it('creates DATA_DIR and its parents open to be entered by the database user, whatever the umask', () => {
    const dir = join(root, 'srv', 'vigil', 'data');
    const umask = process.umask(0o077);
    try {
      makeDataDir(dir);
    } finally {
      process.umask(umask);
    }
    const expected = runsAsRoot() ? 0o711 : 0o700;
    for (const folder of [join(root, 'srv'), join(root, 'srv', 'vigil'), dir]) expect(statSync(folder).mode & 0o777).toBe(expected);
    // A folder that existed keeps its mode.
    expect(statSync(root).mode & 0o777).toBe(0o755);
  });
});
