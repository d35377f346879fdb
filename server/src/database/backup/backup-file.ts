import { createReadStream, createWriteStream } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { createGunzip, createGzip } from 'node:zlib';
import { SequenceState, TableBatch } from '../embedded/table-copy';
import { Snapshot } from '../embedded/transfer';

/**
 * A Vigil backup: gzip'd JSON lines. The first line describes the database (format, PostgreSQL version, the migrations
 * applied, row counts, sequence positions); every further line is one batch `{"table": …, "rows": [ … ]}`. The schema
 * is not in the file: restoring runs the same migrations, then loads the rows.
 */
export const BACKUP_FORMAT = 'vigil-backup';
export const BACKUP_VERSION = 1;

export interface BackupHeader {
  format: typeof BACKUP_FORMAT;
  version: number;
  createdAt: string;
  postgres: string;
  migrations: string[];
  counts: Record<string, number>;
  sequences: SequenceState[];
}

export async function writeBackup(file: string, snapshot: Snapshot, postgres: string): Promise<void> {
  const gzip = createGzip();
  const out = createWriteStream(file, { mode: 0o600 });
  const done = new Promise<void>((resolve, reject) => {
    out.once('finish', resolve);
    out.once('error', reject);
    gzip.once('error', reject);
  });
  gzip.pipe(out);
  const write = async (line: string) => {
    if (!gzip.write(`${line}\n`)) await once(gzip, 'drain');
  };
  const header: BackupHeader = {
    format: BACKUP_FORMAT,
    version: BACKUP_VERSION,
    createdAt: new Date().toISOString(),
    postgres,
    migrations: snapshot.migrations,
    counts: snapshot.counts,
    sequences: snapshot.sequences,
  };
  await write(JSON.stringify(header));
  // json_agg puts a line break between elements; inside JSON strings line breaks are escaped, so dropping raw ones
  // keeps one batch per line without changing a value.
  for await (const batch of snapshot.batches()) {
    await write(`{"table":${JSON.stringify(batch.table)},"rows":${batch.rows.replace(/\n/g, '')}}`);
  }
  gzip.end();
  await done;
}

async function* lines(file: string): AsyncGenerator<string> {
  const reader = createInterface({ input: createReadStream(file).pipe(createGunzip()), crlfDelay: Infinity });
  for await (const line of reader) if (line) yield line;
}

/** Opens a backup: its header at once, its rows as they are read. */
export async function readBackup(file: string): Promise<{ header: BackupHeader; snapshot: Snapshot }> {
  const iterator = lines(file);
  const first = await iterator.next();
  let header: BackupHeader;
  try {
    header = JSON.parse(first.value ?? '') as BackupHeader;
  } catch {
    throw new Error(`${file} is not a Vigil backup`);
  }
  if (header.format !== BACKUP_FORMAT || header.version !== BACKUP_VERSION)
    throw new Error(`${file} is not a Vigil backup (version ${BACKUP_VERSION})`);
  return {
    header,
    snapshot: {
      migrations: header.migrations,
      counts: header.counts,
      sequences: header.sequences,
      async *batches(): AsyncGenerator<TableBatch> {
        for await (const line of iterator) {
          const batch = JSON.parse(line) as { table: string; rows: unknown[] };
          yield { table: batch.table, rows: JSON.stringify(batch.rows), count: batch.rows.length };
        }
      },
    },
  };
}
