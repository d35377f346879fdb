import { type LookupFunction, Socket } from 'node:net';
import { Client, type QueryArrayConfig } from 'pg';
import type { OutboundGuards } from '../../../common/outbound';
import type { Checker, CheckTarget, Endpoint, ProbeResult } from '../../checkers/checker';
import {
  cutValue,
  type DatabaseRun,
  type DatabaseSession,
  destroyAll,
  runDatabaseCheck,
  tlsOptions,
  databaseEndpoint,
} from '../../checkers/database-connection';

export const POSTGRES_DEFAULT_QUERY = 'SELECT 1';

/** Every column as the text the server sent (no Date or number parsing): `value` is what psql would print. */
const RAW_TEXT = { getTypeParser: () => (value: string) => value };

/**
 * PostgreSQL: opens a connection per check (proving the server still accepts new ones), runs the query in a READ ONLY
 * transaction with a statement_timeout of the time left, and closes. The query goes through the extended protocol,
 * which takes one statement only, so `COMMIT; DELETE …` cannot step out of the read-only transaction.
 */
export class PostgresChecker implements Checker<'postgres'> {
  readonly type = 'postgres' as const;
  private readonly open = new Set<DatabaseSession>();

  constructor(private readonly deps: { outbound: OutboundGuards }) {}

  endpoint(target: CheckTarget<'postgres'>): Endpoint | null {
    return databaseEndpoint('postgres', target.connectionString);
  }

  check(target: CheckTarget<'postgres'>): Promise<ProbeResult> {
    return runDatabaseCheck(
      'postgres',
      target,
      this.deps.outbound,
      this.open,
      postgresQuery(target.query?.trim() || POSTGRES_DEFAULT_QUERY),
    );
  }

  close(): Promise<void> {
    return destroyAll(this.open);
  }
}

function postgresQuery(query: string): DatabaseRun {
  return async (endpoint, lookup, remaining, track) => {
    const user = endpoint.username || 'postgres';
    const client = new Client({
      stream: () => guardedSocket(lookup),
      host: endpoint.host,
      port: endpoint.port,
      user,
      database: endpoint.database || user,
      // A function, so that an empty password stays empty: pg would otherwise fall back to this server's own
      // PGPASSWORD or ~/.pgpass and send them to the monitored host.
      password: () => endpoint.password,
      ssl: tlsOptions(endpoint) ?? false,
      application_name: 'vigil-monitor',
      connectionTimeoutMillis: remaining(),
      keepAlive: false,
    });
    // A connection that dies between statements emits 'error'; the pending call rejects with it anyway.
    client.on('error', () => undefined);
    const session: DatabaseSession = { close: () => client.end(), destroy: () => client.connection.stream.destroy() };
    track(session);
    await client.connect();
    session.connected = true;
    await client.query(`BEGIN READ ONLY; SET LOCAL statement_timeout = ${remaining()}`);
    const result = await client.query({ text: query, rowMode: 'array', types: RAW_TEXT, queryMode: 'extended' } as QueryArrayConfig);
    const first = result.rows[0]?.[0] as string | null | undefined;
    return { rowCount: result.rows.length, value: cutValue(first ?? null) };
  };
}

/** A socket for pg, whose `connect(port, host)` resolves the host through the outbound policy's lookup (pg has no lookup option). */
function guardedSocket(lookup: LookupFunction): Socket {
  const socket = new Socket();
  const connect = socket.connect.bind(socket);
  socket.connect = ((port: number, host: string) => connect({ port, host, lookup })) as Socket['connect'];
  return socket;
}
