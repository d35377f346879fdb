// Bytes written per check, from PostgreSQL's own statistics (bench:checker): WAL (pg_stat_wal), data pages written
// (pg_stat_io from 16, pg_stat_bgwriter before), the database's growth and the WAL folder. The counters are the
// cluster's: on a shared PostgreSQL the other databases' commits in the window are printed beside them.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { f } from './measure.mjs';

const require = createRequire(import.meta.url);

/** The check tables and what each check updates; their total sizes are read at both ends of the window. */
const TABLES = ['monitor_checks', 'monitor_hourly', 'monitor_daily', 'monitors'];

/** The embedded cluster as its postmaster.pid tells (socket folder or loopback port), superuser `vigil`. */
function embeddedUrl(dataDir) {
  const dir = join(dataDir, 'pg');
  const lines = readFileSync(join(dir, 'postmaster.pid'), 'utf8').split('\n');
  const [port, socketDir, listen] = [lines[3], lines[4], lines[5]];
  const password = encodeURIComponent(readFileSync(join(dir, 'vigil.password'), 'utf8').trim());
  if (socketDir) return `postgres://vigil:${password}@/vigil?host=${encodeURIComponent(socketDir)}&port=${port}`;
  return `postgres://vigil:${password}@${listen || '127.0.0.1'}:${port}/vigil`;
}

/** A statistics reader on the server's database: `embedded` reads DATA_DIR, else the given URL (a superuser's). */
export async function diskStats(mode, { dataDir, databaseUrl }) {
  const { Client } = require('pg');
  const client = new Client({ connectionString: mode === 'embedded' ? embeddedUrl(dataDir) : databaseUrl });
  // The cluster may stop before this reader is closed (a failed run); that is not the bench's failure.
  client.on('error', () => {});
  await client.connect();
  const version = Number((await client.query('SHOW server_version_num')).rows[0].server_version_num);
  const dataWrites =
    version >= 180000
      ? `SELECT coalesce(sum(write_bytes), 0)::bigint AS bytes FROM pg_stat_io WHERE object IN ('relation', 'temp relation')`
      : version >= 160000
        ? `SELECT coalesce(sum(writes * op_bytes), 0)::bigint AS bytes FROM pg_stat_io WHERE object IN ('relation', 'temp relation')`
        : `SELECT ((buffers_checkpoint + buffers_clean + buffers_backend) * current_setting('block_size')::bigint)::bigint AS bytes FROM pg_stat_bgwriter`;
  const checkpoints =
    version >= 170000
      ? `SELECT (num_timed + num_requested)::bigint AS n FROM pg_stat_checkpointer`
      : `SELECT (checkpoints_timed + checkpoints_req)::bigint AS n FROM pg_stat_bgwriter`;
  // Flushes: each one rewrites the WAL's current page however little it adds (pg_stat_io's 'wal' row from 18).
  const flushes =
    version >= 180000
      ? `SELECT coalesce(sum(fsyncs), 0)::bigint AS n FROM pg_stat_io WHERE object = 'wal'`
      : `SELECT wal_sync::bigint AS n FROM pg_stat_wal`;
  const one = async (sql) => Object.values((await client.query(sql)).rows[0])[0];

  async function snapshot() {
    const wal = (await client.query(`SELECT wal_records, wal_fpi, wal_bytes FROM pg_stat_wal`)).rows[0];
    const sizes = (
      await client.query(
        `SELECT t AS name, coalesce(pg_total_relation_size(to_regclass(t)), 0)::bigint AS bytes FROM unnest($1::text[]) AS t`,
        [TABLES],
      )
    ).rows;
    return {
      walBytes: Number(wal.wal_bytes),
      walRecords: Number(wal.wal_records),
      walFpi: Number(wal.wal_fpi),
      dataWriteBytes: Number(await one(dataWrites)),
      checkpoints: Number(await one(checkpoints)),
      walFlushes: Number(await one(flushes)),
      at: Date.now(),
      databaseBytes: Number(await one(`SELECT pg_database_size(current_database())::bigint`)),
      walFolderBytes: Number(await one(`SELECT coalesce(sum(size), 0)::bigint FROM pg_ls_waldir()`)),
      otherCommits: Number(
        await one(
          `SELECT coalesce(sum(xact_commit), 0)::bigint FROM pg_stat_database WHERE datname IS NOT NULL AND datname <> current_database()`,
        ),
      ),
      tables: Object.fromEntries(sizes.map((row) => [row.name, Number(row.bytes)])),
    };
  }

  return {
    version,
    /**
     * Raw checks for the last `hours` (one a minute per monitor, in time order as the writer stores them) and their
     * hourly rows: an index with a retention's history spreads each minute's checks over one leaf page per monitor,
     * where a fresh one packs them into a few, and after each checkpoint each of those pages is logged whole once.
     */
    async seedHistory(hours) {
      if (!hours) return;
      await client.query(
        `INSERT INTO monitor_checks (monitor_id, status, status_code, response_time, checked_at)
         SELECT m.id, 'up', 200, 5, now() - k * interval '1 minute' FROM monitors m, generate_series(1, $1::int * 60) k ORDER BY k DESC, m.id`,
        [hours],
      );
      await client.query(
        `INSERT INTO monitor_hourly (monitor_id, hour, checks, up, response_sum, response_count, response_max)
         SELECT m.id, date_trunc('hour', now()) - k * interval '1 hour', 60, 60, 300, 60, 5 FROM monitors m, generate_series(1, $1::int) k
         ON CONFLICT DO NOTHING`,
        [hours],
      );
      await client.query('VACUUM ANALYZE monitor_checks, monitor_hourly');
    },
    async settings() {
      const names = [
        'wal_compression',
        'checkpoint_timeout',
        'full_page_writes',
        'synchronous_commit',
        'wal_writer_delay',
        'max_wal_size',
        'wal_level',
      ];
      const rows = (await client.query(`SELECT name, setting, unit FROM pg_settings WHERE name = ANY($1::text[])`, [names])).rows;
      return Object.fromEntries(rows.map((row) => [row.name, row.unit ? `${row.setting} ${row.unit}` : row.setting]));
    },
    /**
     * The window starts and ends on a checkpoint, so it holds whole checkpoint cycles: the full-page images written
     * after each checkpoint are all inside it, and the final one writes every page the window dirtied.
     */
    async start() {
      await client.query('CHECKPOINT');
      return snapshot();
    },
    /** WAL is read at the window's end (with the rows written), data writes after the closing checkpoint. */
    async end() {
      const atEnd = await snapshot();
      await client.query('CHECKPOINT');
      return { ...atEnd, dataWriteBytes: Number(await one(dataWrites)) };
    },
    close: () => client.end(),
  };
}

/** Per check (one stored row) over the window. */
export function diskFigures(before, after, rows, settings, version) {
  const per = (delta) => (rows ? delta / rows : NaN);
  const wal = per(after.walBytes - before.walBytes);
  const data = per(after.dataWriteBytes - before.dataWriteBytes);
  return {
    version,
    settings,
    rows,
    walBytesPerCheck: wal,
    walRecordsPerCheck: per(after.walRecords - before.walRecords),
    fullPageImagesPer1000Checks: per(after.walFpi - before.walFpi) * 1000,
    dataWriteBytesPerCheck: data,
    writtenBytesPerCheck: wal + data,
    databaseGrowthPerCheck: per(after.databaseBytes - before.databaseBytes),
    tableGrowthPerCheck: Object.fromEntries(Object.keys(after.tables).map((t) => [t, per(after.tables[t] - before.tables[t])])),
    walFolderBytes: { start: before.walFolderBytes, end: after.walFolderBytes },
    checkpointsInWindow: after.checkpoints - before.checkpoints,
    walFlushesPerMinute: ((after.walFlushes - before.walFlushes) / (after.at - before.at)) * 60_000,
    otherDatabasesCommits: after.otherCommits - before.otherCommits,
  };
}

export function diskLines(d) {
  if (!d) return [];
  if (d.error) return [`  disk writes              not read: ${d.error}`];
  const tables = Object.entries(d.tableGrowthPerCheck)
    .map(([t, bytes]) => `${t} ${f(bytes)}`)
    .join(', ');
  return [
    `  disk writes per check    ${f(d.writtenBytesPerCheck)} B = WAL ${f(d.walBytesPerCheck)} B (${f(d.walRecordsPerCheck, 1)} records, ${f(d.fullPageImagesPer1000Checks, 1)} full-page images per 1,000 checks) ` +
      `+ data pages ${f(d.dataWriteBytesPerCheck)} B; over ${d.rows} checks, ${d.checkpointsInWindow} checkpoints in the window (PostgreSQL ${Math.floor(d.version / 10000)}); ` +
      `${f(d.walFlushesPerMinute)} WAL flushes a minute`,
    `  growth per check         database ${f(d.databaseGrowthPerCheck)} B (${tables}); WAL folder ${f(d.walFolderBytes.start / 2 ** 20, 1)} → ${f(d.walFolderBytes.end / 2 ** 20, 1)} MiB`,
    `  PostgreSQL settings      (the server's) ${Object.entries(d.settings)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}; other databases' commits in the window ${d.otherDatabasesCommits}`,
  ];
}
