import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { startEmbeddedPostgres } from '../embedded-postgres';
import { MIGRATIONS } from '../migrations';
import { EMBEDDED_MAJOR, findBinaries } from './binaries';
import { chooseDatabaseUser } from './run-as';
import { migrateTo } from './transfer';
import { upgradeCluster, upgradeIfOlder } from './upgrade';

/**
 * The major-version upgrade path, run with this release's binaries standing in for the older major's (the copy does
 * not depend on which major made the cluster; a later release passes its predecessor's binaries).
 */
describe('embedded cluster upgrade', () => {
  let dataDir: string;
  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'vigil-upgrade-'));
    chmodSync(dataDir, 0o755);
  });
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  const read = async (connection: object) => {
    const client = new Client(connection);
    await client.connect();
    try {
      return (await client.query(`SELECT value FROM settings WHERE key = 'upgrade-test'`)).rows.map((row) => row.value);
    } finally {
      await client.end();
    }
  };

  it('copies every row into a new cluster and keeps the old one beside it', async () => {
    const first = await startEmbeddedPostgres({ dataDir });
    await migrateTo(
      first.connection,
      MIGRATIONS.map((migration) => new migration().name!),
    );
    const client = new Client(first.connection);
    await client.connect();
    await client.query(`INSERT INTO settings (key, value, updated_at) VALUES ('upgrade-test', '"kept"', now())`);
    await client.end();
    await first.stop();

    const user = chooseDatabaseUser(findBinaries(), dataDir);
    const kept = await upgradeCluster(join(dataDir, 'pg'), user.binaries, user.binaries, user);
    expect(existsSync(join(kept, 'PG_VERSION'))).toBe(true);
    expect(readdirSync(dataDir).sort()).toEqual(['pg', kept.split('/').pop()].sort());

    const upgraded = await startEmbeddedPostgres({ dataDir });
    try {
      expect(await read(upgraded.connection)).toEqual(['kept']);
    } finally {
      await upgraded.stop();
    }
  }, 120_000);

  it('refuses a cluster of another major with one line pointing to the upgrade notes', async () => {
    const first = await startEmbeddedPostgres({ dataDir });
    await first.stop();
    writeFileSync(join(dataDir, 'pg', 'PG_VERSION'), `${EMBEDDED_MAJOR + 1}\n`);
    const user = chooseDatabaseUser(findBinaries(), dataDir);
    await expect(upgradeIfOlder(join(dataDir, 'pg'), user.binaries, user)).rejects.toThrow(
      new RegExp(
        `holds a PostgreSQL ${EMBEDDED_MAJOR + 1} cluster but this Vigil ships PostgreSQL ${EMBEDDED_MAJOR}; see docs/operations.md`,
      ),
    );
  }, 60_000);
});
