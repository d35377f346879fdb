import { Client, ClientConfig } from 'pg';
import { DataSource } from 'typeorm';
import { ENTITIES } from '../entities';
import { MIGRATIONS } from '../migrations';
import {
  appliedMigrations,
  countDifferences,
  countRows,
  emptyTables,
  listTables,
  MIGRATIONS_TABLE,
  Query,
  readSequences,
  readTable,
  SequenceState,
  TableBatch,
  TableWriter,
  withoutTriggers,
  writeSequences,
} from './table-copy';

/** Where rows go: a `pg` client config (connection fields, or a connectionString). */
export type Target = ClientConfig;

export function clientQuery(client: Client): Query {
  return async (sql, params) => (await client.query(sql, params as unknown[])).rows;
}

/** Gives the target exactly the schema the source had: Vigil's migrations up to the source's last one. */
export async function migrateTo(target: Target, names: string[]): Promise<void> {
  const known = new Map(MIGRATIONS.map((migration) => [new migration().name ?? migration.name, migration]));
  const unknown = names.filter((name) => !known.has(name));
  if (unknown.length) {
    throw new Error(`the data was made by a newer Vigil (migrations ${unknown.join(', ')} are unknown here); use that version`);
  }
  const dataSource = new DataSource({
    type: 'postgres',
    ...(target.connectionString
      ? { url: target.connectionString }
      : {
          host: target.host,
          port: target.port,
          username: target.user,
          password: target.password as string | undefined,
          database: target.database,
        }),
    entities: ENTITIES,
    migrations: names.map((name) => known.get(name)!),
    poolSize: 1,
    logging: ['error'],
  });
  await dataSource.initialize();
  try {
    await dataSource.runMigrations({ transaction: 'each' });
  } finally {
    await dataSource.destroy();
  }
}

/** Rows and sequence positions of one consistent state of a database. */
export interface Snapshot {
  migrations: string[];
  counts: Record<string, number>;
  sequences: SequenceState[];
  batches(): AsyncGenerator<TableBatch>;
}

/** Reads a database (inside whatever snapshot the caller's session holds). */
export async function readSnapshot(source: Query): Promise<Snapshot> {
  const tables = (await listTables(source)).filter((table) => table !== MIGRATIONS_TABLE);
  return {
    migrations: await appliedMigrations(source),
    counts: await countRows(source, tables),
    sequences: await readSequences(source),
    async *batches() {
      for (const table of tables) yield* readTable(source, table);
    },
  };
}

/**
 * Writes a snapshot into the target database: schema from migrations, then rows and sequences in one transaction,
 * then the row counts are compared. A failure leaves the target's previous rows (its transaction rolls back).
 */
export async function writeSnapshot(target: Target, snapshot: Snapshot): Promise<Record<string, number>> {
  await migrateTo(target, snapshot.migrations);
  const client = new Client(target);
  await client.connect();
  const query = clientQuery(client);
  try {
    await query('BEGIN');
    await emptyTables(query);
    const writer = new TableWriter(query);
    await withoutTriggers(query, async () => {
      for await (const batch of snapshot.batches()) await writer.write(batch);
    });
    await writeSequences(query, snapshot.sequences);
    const found = await countRows(query, Object.keys(snapshot.counts));
    const differences = countDifferences(snapshot.counts, found);
    if (differences.length) throw new Error(`row counts differ after copying (${differences.join(', ')})`);
    await query('COMMIT');
    return found;
  } catch (error) {
    await query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    await client.end();
  }
}
