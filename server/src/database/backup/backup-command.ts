import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { Client, ClientConfig } from 'pg';
import { AppConfig, ConfigError, loadConfig } from '../../config/config';
import { startEmbeddedPostgres } from '../embedded-postgres';
import { EmbeddedDatabaseError } from '../embedded/binaries';
import { alive, clusterPassword, EMBEDDED_DATABASE, EMBEDDED_ROLE, isCluster, recordedPid } from '../embedded/cluster';
import { chooseDataDir } from '../embedded/data-dir';
import { stamp } from '../embedded/pglite-migration';
import { clientQuery, readSnapshot, writeSnapshot } from '../embedded/transfer';
import { readBackup, writeBackup } from './backup-file';

/** The folder the server keeps its data in with this configuration (as root it may not be DATA_DIR's default). */
function dataDirOf(config: AppConfig): string {
  return config.databaseUrl ? config.dataDir : chooseDataDir(config.dataDir, config.dataDirFallback).dataDir;
}

interface OpenDatabase {
  target: ClientConfig;
  /** True when a running Vigil owns this embedded cluster (its postmaster was already up). */
  inUse: boolean;
  close(): Promise<void>;
}

/**
 * The database Vigil would use with this configuration. The embedded cluster is reached where its running postmaster
 * listens (postmaster.pid: port line 4, socket folder line 5), or started for the command and stopped after it.
 */
async function openDatabase(config: AppConfig, create: boolean): Promise<OpenDatabase> {
  if (config.databaseUrl) return { target: { connectionString: config.databaseUrl }, inUse: false, close: async () => undefined };
  const dir = join(dataDirOf(config), 'pg');
  if (!create && !isCluster(dir)) throw new EmbeddedDatabaseError(`there is no embedded database in ${dir} (is DATA_DIR right?)`);
  const pid = isCluster(dir) ? recordedPid(dir) : null;
  if (pid !== null && alive(pid)) {
    const lines = readFileSync(join(dir, 'postmaster.pid'), 'utf8').split('\n');
    const [port, socketDir, listen] = [Number(lines[3]), lines[4]?.trim(), lines[5]?.trim()];
    const target: ClientConfig = socketDir
      ? { host: socketDir, port, user: EMBEDDED_ROLE, database: EMBEDDED_DATABASE }
      : { host: listen || '127.0.0.1', port, user: EMBEDDED_ROLE, password: clusterPassword(dir), database: EMBEDDED_DATABASE };
    return { target, inUse: true, close: async () => undefined };
  }
  const embedded = await startEmbeddedPostgres({ dataDir: dataDirOf(config) });
  return { target: embedded.connection, inUse: false, close: () => embedded.stop() };
}

async function backup(config: AppConfig, file: string | undefined): Promise<string> {
  const path = resolve(file ?? join(dataDirOf(config), 'backups', `vigil-${stamp()}.json.gz`));
  mkdirSync(dirname(path), { recursive: true });
  const database = await openDatabase(config, false);
  try {
    const client = new Client(database.target);
    await client.connect();
    try {
      const query = clientQuery(client);
      // One snapshot for the whole file, as pg_dump takes: writes that land meanwhile are simply not in it.
      await query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
      const snapshot = await readSnapshot(query);
      const [{ server_version: version }] = await query('SHOW server_version');
      await writeBackup(path, snapshot, String(version));
      await query('COMMIT');
      const rows = Object.values(snapshot.counts).reduce((sum, n) => sum + n, 0);
      return `Backup written to ${path} (${rows} rows in ${Object.keys(snapshot.counts).length} tables)`;
    } finally {
      await client.end();
    }
  } finally {
    await database.close();
  }
}

async function restore(config: AppConfig, file: string | undefined): Promise<string> {
  if (!file) throw new EmbeddedDatabaseError('name the backup file: npm run restore -- <file>');
  if (!existsSync(file)) throw new EmbeddedDatabaseError(`${file} does not exist`);
  const { header, snapshot } = await readBackup(file);
  const database = await openDatabase(config, true);
  try {
    if (database.inUse) throw new EmbeddedDatabaseError(`Vigil is running on ${dataDirOf(config)}; stop it before restoring`);
    const client = new Client(database.target);
    await client.connect();
    try {
      const [{ n }] = await clientQuery(client)(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`,
      );
      if (Number(n) > 0)
        throw new EmbeddedDatabaseError(`${n} other sessions use this database; stop every Vigil instance before restoring`);
      // The restore replaces everything: an empty schema, then the backup's migrations and rows.
      await client.query('DROP SCHEMA public CASCADE; CREATE SCHEMA public');
    } finally {
      await client.end();
    }
    const counts = await writeSnapshot(database.target, snapshot);
    const rows = Object.values(counts).reduce((sum, count) => sum + count, 0);
    return `Restored ${rows} rows in ${Object.keys(counts).length} tables from ${file} (taken ${header.createdAt}); row counts verified`;
  } finally {
    await database.close();
  }
}

/** `npm run backup [-- file]` and `npm run restore -- file`: prints one line, returns the exit code. */
export async function runDatabaseCommand(command: string, args: string[]): Promise<number> {
  try {
    const config = loadConfig();
    const message = command === 'restore' ? await restore(config, args[0]) : await backup(config, args[0]);
    process.stdout.write(`${message}\n`);
    return 0;
  } catch (error) {
    const known = error instanceof ConfigError || error instanceof EmbeddedDatabaseError;
    process.stderr.write(`Vigil ${command} failed: ${known ? (error as Error).message : ((error as Error).stack ?? String(error))}\n`);
    return 1;
  }
}
