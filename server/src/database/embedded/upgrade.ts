import { Logger } from '@nestjs/common';
import { renameSync, rmSync } from 'node:fs';
import { Client } from 'pg';
import { EMBEDDED_MAJOR, EmbeddedDatabaseError, findOlderBinaries, PostgresBinaries } from './binaries';
import { clusterMajor, initCluster } from './cluster';
import { stamp } from './pglite-migration';
import { runCluster } from './postmaster';
import { DatabaseUser } from './run-as';
import { clientQuery, readSnapshot, writeSnapshot } from './transfer';

/**
 * Moves a cluster made by another PostgreSQL major into one made by `binaries`: the old cluster runs with its own
 * major's binaries, a new one is initialised beside it (`pg.upgrade`), every row is copied (the same logical copy as
 * backup/restore) and the row counts compared; only then does the new cluster take the old one's place, which is
 * kept as `pg.v<major>-<date>`. A failure leaves `DATA_DIR/pg` as it was.
 */
export async function upgradeCluster(
  dir: string,
  oldBinaries: PostgresBinaries,
  binaries: PostgresBinaries,
  user: DatabaseUser,
): Promise<string> {
  const logger = new Logger('EmbeddedPostgres');
  const oldMajor = clusterMajor(dir);
  const staging = `${dir}.upgrade`;
  rmSync(staging, { recursive: true, force: true });
  initCluster(binaries, staging, user);
  const old = await runCluster(oldBinaries, dir, user);
  try {
    const fresh = await runCluster(binaries, staging, user);
    try {
      const client = new Client(old.connection);
      await client.connect();
      try {
        const query = clientQuery(client);
        await query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
        await writeSnapshot(fresh.connection, await readSnapshot(query));
        await query('COMMIT');
      } finally {
        await client.end();
      }
    } finally {
      await fresh.stop();
    }
  } finally {
    await old.stop();
  }
  const kept = `${dir}.v${oldMajor}-${stamp()}`;
  renameSync(dir, kept);
  renameSync(staging, dir);
  logger.warn(
    `Upgraded the embedded database from PostgreSQL ${oldMajor} to ${clusterMajor(dir)}; row counts verified. The old cluster is kept as ${kept}`,
  );
  return kept;
}

/** At start: a cluster of an older major is upgraded when its binaries are installed; anything else is refused. */
export async function upgradeIfOlder(dir: string, binaries: PostgresBinaries, user: DatabaseUser): Promise<void> {
  const major = clusterMajor(dir);
  if (major === EMBEDDED_MAJOR) return;
  const oldBinaries = major < EMBEDDED_MAJOR ? findOlderBinaries(major) : null;
  if (!oldBinaries) {
    throw new EmbeddedDatabaseError(
      `${dir} holds a PostgreSQL ${major} cluster but this Vigil ships PostgreSQL ${EMBEDDED_MAJOR}; ` +
        `see docs/operations.md (major upgrades): back it up with the Vigil that made it (npm run backup) and restore`,
    );
  }
  await upgradeCluster(dir, oldBinaries, binaries, user);
}
