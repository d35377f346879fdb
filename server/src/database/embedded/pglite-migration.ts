import { Logger } from '@nestjs/common';
import { existsSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { ClientConfig } from 'pg';
import { Query } from './table-copy';
import { readSnapshot, writeSnapshot } from './transfer';

/** The folder where releases before the embedded PostgreSQL kept their PGlite database. */
export const PGLITE_FOLDER = 'db';

export function stamp(date = new Date()): string {
  return date.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
}

/**
 * Moves the rows of a PGlite database left in `DATA_DIR/db` by an earlier release into the embedded cluster, once:
 * PGlite opens the folder read-only in effect (nothing is written to it), the rows are copied onto the same migrations
 * and the row counts of every table compared; only then is the folder renamed to `db.migrated-<date>`, kept for the
 * operator to delete. A failure leaves the folder where it was, so the next start tries again.
 */
export async function migratePgliteFolder(dataDir: string, target: ClientConfig): Promise<boolean> {
  const folder = join(dataDir, PGLITE_FOLDER);
  if (!existsSync(join(folder, 'PG_VERSION'))) return false;
  const logger = new Logger('EmbeddedPostgres');
  const started = Date.now();
  logger.log(`Found a PGlite database in ${folder}; copying it into the embedded PostgreSQL`);
  // PGlite is ESM-only; the dynamic import keeps this CommonJS build loading it, and only when a folder is found.
  const { PGlite } = await import('@electric-sql/pglite');
  const db = await PGlite.create(folder);
  try {
    const source: Query = async (sql, params) => (await db.query<Record<string, unknown>>(sql, params)).rows;
    await source('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const snapshot = await readSnapshot(source);
    const counts = await writeSnapshot(target, snapshot);
    await source('COMMIT');
    const rows = Object.values(counts).reduce((sum, n) => sum + n, 0);
    const kept = `${folder}.migrated-${stamp()}`;
    await db.close();
    renameSync(folder, kept);
    // A warning so it shows at every log level: the operator should know the old folder is still there.
    logger.warn(
      `Copied ${rows} rows in ${Object.keys(counts).length} tables from PGlite in ${Date.now() - started} ms; ` +
        `row counts verified. The old folder is kept as ${kept} (delete it once you are satisfied)`,
    );
    return true;
  } finally {
    if (!db.closed) await db.close();
  }
}
