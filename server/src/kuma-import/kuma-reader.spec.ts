import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import initSqlJs from 'sql.js';
import { KumaFileError } from './kuma-file';
import { readKumaFile } from './read-kuma-file';

const dir = mkdtempSync(join(tmpdir(), 'kuma-reader-'));
execFileSync(process.execPath, [join(__dirname, '../../../test/fixtures/kuma/build-kuma-db.mjs'), dir]);
const file = (name: string) => new Uint8Array(readFileSync(join(dir, name)));

const problemOf = (bytes: Uint8Array) =>
  readKumaFile(bytes, 'none').then(
    () => 'read',
    (error: unknown) => (error instanceof KumaFileError ? error.problem : String(error)),
  );

describe('readKumaFile', () => {
  it.each([
    ['kuma-1.23.db', 'kuma-1.23', 19],
    ['kuma-2.db', 'kuma-2', 25],
    ['kuma-1.23-backup.json', 'kuma-backup', 19],
  ])('reads %s as %s with its monitors', async (name, source, monitors) => {
    const sut = await readKumaFile(file(name), 'raw');
    expect(sut.source).toBe(source);
    expect(sut.monitors).toHaveLength(monitors);
    expect(sut.monitorNotifications.length).toBeGreaterThan(0);
    expect(sut.monitorTags).toContainEqual(expect.objectContaining({ monitor_id: 2, name: 'env', value: 'prod' }));
  });

  it('keeps 1.23 push tokens of 10 characters and 2.x ones of 32', async () => {
    const tokenOf = async (name: string) => (await readKumaFile(file(name), 'none')).monitors.find((m) => m.type === 'push')?.push_token;
    expect(await tokenOf('kuma-1.23.db')).toHaveLength(10);
    expect(await tokenOf('kuma-2.db')).toHaveLength(32);
  });

  it('reads heartbeats raw and 2.x daily stats', async () => {
    expect((await readKumaFile(file('kuma-1.23.db'), 'raw')).heartbeats).toHaveLength(12);
    expect((await readKumaFile(file('kuma-2.db'), 'daily')).statDaily).toHaveLength(3);
    expect((await readKumaFile(file('kuma-2.db'), 'none')).heartbeats).toHaveLength(0);
  });

  it.each([
    ['an empty file', () => new Uint8Array(0), 'empty'],
    ['a text file', () => new TextEncoder().encode('hello, this is not a database'), 'notKuma'],
    ['JSON that is not a backup', () => new TextEncoder().encode('{"hello":1}'), 'notKuma'],
    ['a truncated database', () => file('kuma-2.db').subarray(0, 40_960), 'truncated'],
    ['a cut header', () => file('kuma-2.db').subarray(0, 10), 'truncated'],
    ['an encrypted database', () => Uint8Array.from({ length: 8192 }, (_, i) => (i * 2_654_435_761) >>> 24), 'encrypted'],
    ['a 2.x JSON backup', () => new TextEncoder().encode('{"version":"2.0.0","monitorList":[],"notificationList":[]}'), 'unknownVersion'],
  ])('refuses %s', async (_name, bytes, problem) => {
    expect(await problemOf(bytes())).toBe(problem);
  });

  it('refuses a SQLite file that is not Kuma and an unknown schema version', async () => {
    const SQL = await initSqlJs();
    const other = new SQL.Database();
    other.run('CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT)');
    expect(await problemOf(other.export())).toBe('notKuma');
    const old = new SQL.Database(file('kuma-1.23.db').map((b, i) => (i === 18 || i === 19 ? 1 : b)));
    old.run(`UPDATE setting SET value = '7' WHERE key = 'database_version'`);
    expect(await problemOf(old.export())).toBe('unknownVersion');
  });
});
