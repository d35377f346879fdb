/**
 * Reads a Kuma `kuma.db` with sql.js (SQLite compiled to WebAssembly: no native build). Runs inside the reader worker
 * (kuma-reader.worker.ts), so a 50 MB file never holds the event loop the checks run on.
 */
import initSqlJs, { type Database, type SqlValue } from 'sql.js';
import { emptyKumaData, KUMA_HEARTBEATS_PER_MONITOR, KumaFileError, type KumaData, type KumaHistoryMode, type KumaRow } from './kuma-file';

const SQLITE_HEADER = 'SQLite format 3\u0000';
/** Kuma's last numbered patch: 1.23 and 2.x both end at 10 (2.x goes on with knex migrations). */
const KUMA_DATABASE_VERSION = 10;
/** Columns the mapping cannot do without: a file missing one is not a schema we know. */
const REQUIRED_COLUMNS: Record<string, string[]> = {
  monitor: ['id', 'name', 'type', 'active', 'interval', 'url', 'hostname', 'port', 'maxretries', 'retry_interval', 'parent', 'push_token'],
  notification: ['id', 'name', 'config', 'is_default'],
  monitor_notification: ['monitor_id', 'notification_id'],
};

/** Checks the bytes look like a whole SQLite file; a random-looking file of whole pages is taken as encrypted (SQLCipher). */
export function checkSqliteBytes(bytes: Uint8Array): void {
  if (bytes.length === 0) throw new KumaFileError('empty');
  const header = Buffer.from(bytes.subarray(0, 16)).toString('latin1');
  if (header !== SQLITE_HEADER) {
    if (SQLITE_HEADER.startsWith(header)) throw new KumaFileError('truncated');
    throw new KumaFileError(looksEncrypted(bytes) ? 'encrypted' : 'notKuma');
  }
  if (bytes.length < 100) throw new KumaFileError('truncated');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const rawPageSize = view.getUint16(16);
  const pageSize = rawPageSize === 1 ? 65_536 : rawPageSize;
  const pages = view.getUint32(28);
  // The header's page count is valid when the change counters agree (SQLite 3.7.0+ writes it so).
  if (pages > 0 && view.getUint32(24) === view.getUint32(92) && bytes.length < pages * pageSize) {
    throw new KumaFileError('truncated');
  }
}

/** SQLCipher files start with a random salt: many distinct bytes, no run of text, whole pages. */
function looksEncrypted(bytes: Uint8Array): boolean {
  if (bytes.length < 1024 || bytes.length % 512 !== 0) return false;
  const sample = bytes.subarray(0, 4096);
  const seen = new Set(sample);
  return seen.size > 200;
}

const tableNames = (db: Database): Set<string> =>
  new Set(rows(db, `SELECT name FROM sqlite_master WHERE type = 'table'`).map((row) => String(row.name)));

function rows(db: Database, sql: string, params: SqlValue[] = []): KumaRow[] {
  const statement = db.prepare(sql);
  try {
    statement.bind(params);
    const out: KumaRow[] = [];
    while (statement.step()) out.push(statement.getAsObject());
    return out;
  } finally {
    statement.free();
  }
}

const columnsOf = (db: Database, table: string): Set<string> =>
  new Set(rows(db, `PRAGMA table_info([${table}])`).map((row) => String(row.name)));

function detect(db: Database): 'kuma-1.23' | 'kuma-2' {
  const tables = tableNames(db);
  if (!tables.has('monitor') || !tables.has('setting')) throw new KumaFileError('notKuma');
  const version = rows(db, `SELECT value FROM setting WHERE key = 'database_version'`)[0]?.value;
  const source = tables.has('knex_migrations') ? 'kuma-2' : 'kuma-1.23';
  // Settings are stored JSON-encoded (`10`); a 1.23 file has exactly 10, a 2.x file 10 too (knex goes on from there).
  if (version === undefined || Number(JSON.parse(String(version))) !== KUMA_DATABASE_VERSION) {
    throw new KumaFileError('unknownVersion');
  }
  for (const [table, columns] of Object.entries(REQUIRED_COLUMNS)) {
    if (!tables.has(table)) throw new KumaFileError('unknownVersion');
    const have = columnsOf(db, table);
    if (columns.some((column) => !have.has(column))) throw new KumaFileError('unknownVersion');
  }
  return source;
}

function readHistory(db: Database, tables: Set<string>, mode: KumaHistoryMode): Pick<KumaData, 'heartbeats' | 'statDaily'> {
  if (mode === 'none') return { heartbeats: [], statDaily: [] };
  if (mode === 'daily' && tables.has('stat_daily')) {
    return {
      heartbeats: [],
      statDaily: rows(db, `SELECT monitor_id, timestamp, up, down, ping FROM stat_daily ORDER BY monitor_id, timestamp`),
    };
  }
  const heartbeats = rows(
    db,
    `SELECT monitor_id, status, time, ping, msg FROM (
       SELECT monitor_id, status, time, ping, msg, row_number() OVER (PARTITION BY monitor_id ORDER BY time DESC) AS n FROM heartbeat
     ) WHERE n <= ? ORDER BY monitor_id, time`,
    [KUMA_HEARTBEATS_PER_MONITOR],
  );
  return { heartbeats, statDaily: [] };
}

/** Opens a copy of the file (a WAL-mode header is read as a rollback one: only the main file was uploaded). */
export async function readKumaDatabase(bytes: Uint8Array, history: KumaHistoryMode, wasmPath?: string): Promise<KumaData> {
  checkSqliteBytes(bytes);
  const copy = Uint8Array.from(bytes);
  if (copy[18] === 2) copy[18] = 1;
  if (copy[19] === 2) copy[19] = 1;
  const SQL = await initSqlJs(wasmPath ? { locateFile: () => wasmPath } : undefined);
  let db: Database;
  try {
    db = new SQL.Database(copy);
  } catch {
    throw new KumaFileError('notKuma');
  }
  try {
    return readTables(db, history);
  } catch (error) {
    if (error instanceof KumaFileError) throw error;
    const text = String((error as Error).message);
    if (/encrypted|not a database/i.test(text)) throw new KumaFileError('encrypted');
    if (/malformed|corrupt|disk image/i.test(text)) throw new KumaFileError('truncated');
    throw new KumaFileError('notKuma');
  } finally {
    db.close();
  }
}

function readTables(db: Database, history: KumaHistoryMode): KumaData {
  // A quick integrity pass finds pages cut off mid-file that the header check cannot see.
  const check = rows(db, 'PRAGMA quick_check(1)')[0]?.quick_check;
  if (check !== 'ok') throw new KumaFileError('truncated');
  const source = detect(db);
  const tables = tableNames(db);
  const all = (table: string, order = 'id') => (tables.has(table) ? rows(db, `SELECT * FROM [${table}] ORDER BY ${order}`) : []);
  return {
    ...emptyKumaData(source),
    monitors: all('monitor'),
    notifications: all('notification'),
    monitorNotifications: all('monitor_notification'),
    monitorTags: tables.has('monitor_tag')
      ? rows(db, `SELECT mt.monitor_id, t.name, mt.value FROM monitor_tag mt JOIN tag t ON t.id = mt.tag_id ORDER BY mt.id`)
      : [],
    maintenance: all('maintenance'),
    monitorMaintenance: all('monitor_maintenance'),
    maintenancePages: all('maintenance_status_page'),
    statusPages: all('status_page'),
    pageGroups: all('group', 'status_page_id, weight, id'),
    pageGroupMonitors: all('monitor_group', 'group_id, weight, id'),
    incidents: all('incident'),
    ...readHistory(db, tables, history),
  };
}
