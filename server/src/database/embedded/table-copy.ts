/**
 * Table-by-table copying between two PostgreSQL databases through SQL alone (JSON batches), used to move a PGlite
 * folder onto the embedded cluster and by `npm run backup` / `restore`. The schema is never copied: the target gets
 * it from Vigil's own migrations (the same ones the source had applied), so only rows and sequence positions move.
 */

/** Runs one statement and returns its rows: a `pg` client and PGlite both fit behind this. */
export type Query = (sql: string, params?: unknown[]) => Promise<Array<Record<string, unknown>>>;

/** TypeORM's bookkeeping table: the target's own migrations fill it. */
export const MIGRATIONS_TABLE = 'migrations';
const BATCH_ROWS = 2_000;
/** Tables whose rows are large (a browser check's screenshot, up to 2 MiB, twice that as JSON hex): fewer per batch. */
const LARGE_ROW_BATCHES: Readonly<Record<string, number>> = { monitor_screenshots: 8 };

export interface TableBatch {
  table: string;
  /** JSON array text of the rows. */
  rows: string;
  count: number;
}

export interface SequenceState {
  name: string;
  lastValue: string;
  isCalled: boolean;
}

const ident = (name: string) => `"${name.replace(/"/g, '""')}"`;

export async function listTables(query: Query): Promise<string[]> {
  const rows = await query(`SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`);
  return rows.map((row) => String(row.tablename));
}

export async function appliedMigrations(query: Query): Promise<string[]> {
  if (!(await listTables(query)).includes(MIGRATIONS_TABLE)) return [];
  const rows = await query(`SELECT name FROM ${MIGRATIONS_TABLE} ORDER BY timestamp, id`);
  return rows.map((row) => String(row.name));
}

export async function countRows(query: Query, tables: string[]): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const table of tables) {
    counts[table] = Number((await query(`SELECT count(*)::int AS n FROM ${ident(table)}`))[0].n);
  }
  return counts;
}

/** Every row of `table` in physical order, in batches, so memory stays flat whatever the table's size. */
export async function* readTable(query: Query, table: string): AsyncGenerator<TableBatch> {
  let after = '(0,0)';
  for (;;) {
    const [batch] = await query(
      `SELECT json_agg(s ORDER BY s.__ctid)::text AS rows, count(*)::int AS n,
              (array_agg(s.__ctid ORDER BY s.__ctid DESC))[1]::text AS last
         FROM (SELECT t.*, t.ctid AS __ctid FROM ${ident(table)} t WHERE t.ctid > $1::tid ORDER BY t.ctid LIMIT ${LARGE_ROW_BATCHES[table] ?? BATCH_ROWS}) s`,
      [after],
    );
    const count = Number(batch.n);
    if (!count) return;
    yield { table, rows: String(batch.rows), count };
    after = String(batch.last);
  }
}

export async function readSequences(query: Query): Promise<SequenceState[]> {
  const names = await query(`SELECT sequencename FROM pg_sequences WHERE schemaname = 'public' ORDER BY sequencename`);
  const states: SequenceState[] = [];
  for (const { sequencename } of names) {
    const [state] = await query(`SELECT last_value::text AS v, is_called FROM ${ident(String(sequencename))}`);
    states.push({ name: String(sequencename), lastValue: String(state.v), isCalled: Boolean(state.is_called) });
  }
  return states;
}

/** Empties every table but the migrations bookkeeping (rows a migration seeded are replaced by the copied ones). */
export async function emptyTables(query: Query): Promise<void> {
  const tables = (await listTables(query)).filter((table) => table !== MIGRATIONS_TABLE);
  if (tables.length) await query(`TRUNCATE ${tables.map(ident).join(', ')} CASCADE`);
}

/** Columns a row may be written to (not generated, not dropped). */
async function writableColumns(query: Query, table: string): Promise<string[]> {
  const rows = await query(
    `SELECT attname FROM pg_attribute WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped AND attgenerated = ''
     ORDER BY attnum`,
    [ident(table)],
  );
  return rows.map((row) => String(row.attname));
}

export class TableWriter {
  private readonly columns = new Map<string, string>();

  constructor(private readonly query: Query) {}

  /** Writes one batch; foreign keys are not checked while copying (see `withoutTriggers`). */
  async write(batch: TableBatch): Promise<void> {
    let columns = this.columns.get(batch.table);
    if (!columns) {
      columns = (await writableColumns(this.query, batch.table)).map(ident).join(', ');
      this.columns.set(batch.table, columns);
    }
    await this.query(
      `INSERT INTO ${ident(batch.table)} (${columns}) OVERRIDING SYSTEM VALUE
       SELECT ${columns} FROM json_populate_recordset(NULL::${ident(batch.table)}, $1::json)`,
      [batch.rows],
    );
  }
}

export async function writeSequences(query: Query, states: SequenceState[]): Promise<void> {
  for (const state of states) {
    await query(`SELECT setval($1::regclass, $2::bigint, $3)`, [ident(state.name), state.lastValue, state.isCalled]);
  }
}

/** Rows go in table by table in any order: with replication role `replica` no trigger, foreign key checks included, fires. */
export async function withoutTriggers<T>(query: Query, work: () => Promise<T>): Promise<T> {
  await query(`SET session_replication_role = replica`);
  try {
    return await work();
  } finally {
    await query(`SET session_replication_role = DEFAULT`);
  }
}

/** Names of tables whose row counts differ, as `table: expected → found`. */
export function countDifferences(expected: Record<string, number>, found: Record<string, number>): string[] {
  return Object.keys(expected)
    .filter((table) => expected[table] !== found[table])
    .map((table) => `${table}: ${expected[table]} → ${found[table] ?? 'missing'}`);
}
