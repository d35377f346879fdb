import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, ClientConfig } from 'pg';

/** How a test reaches the embedded cluster a server started in `dataDir` (its Unix socket inside DATA_DIR/pg). */
export function embeddedConnection(dataDir: string): ClientConfig {
  return { host: join(dataDir, 'pg'), port: 5432, user: 'vigil', database: 'vigil' };
}

export async function withClient<T>(config: ClientConfig | string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client(typeof config === 'string' ? { connectionString: config } : config);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The pid PostgreSQL wrote to DATA_DIR/pg/postmaster.pid, or null when the file is absent. */
export function postmasterPid(dataDir: string): number | null {
  try {
    return Number(readFileSync(join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return null;
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Per public table: row count and a digest of every row's text (UTC, sorted), to compare two databases' contents.
 * Tables in `countOnly` are compared by count (a running server rewrites some of their rows).
 */
export async function fingerprint(client: Client, countOnly: string[] = []): Promise<Record<string, string>> {
  await client.query(`SET TimeZone = 'UTC'`);
  const { rows } = await client.query(`SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename`);
  const result: Record<string, string> = {};
  for (const { tablename } of rows) {
    const table = `"${tablename}"`;
    // A running server's job claims and health probes (`job:*`, `health:*` settings) come and go on their own clock.
    const own = tablename === 'settings' ? ` WHERE key NOT LIKE 'job:%' AND key NOT LIKE 'health:%'` : '';
    const select =
      countOnly.includes(tablename) || tablename === 'migrations'
        ? `SELECT count(*)::text AS f FROM ${table}${own}`
        : `SELECT count(*) || ':' || coalesce(md5(string_agg(t::text, '|' ORDER BY t::text)), '') AS f FROM ${table} t`;
    result[tablename] = (await client.query(select)).rows[0].f;
  }
  return result;
}
