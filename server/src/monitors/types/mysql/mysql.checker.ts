import { connect } from 'node:net';
import { type Connection, createConnection, type FieldPacket, type QueryOptions } from 'mysql2';
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

export const MYSQL_DEFAULT_QUERY = 'SELECT 1';

/**
 * MySQL and MariaDB: opens a connection per check, runs the query in a READ ONLY transaction with the server's
 * statement time limit set to the time left (MariaDB's max_statement_time, MySQL's max_execution_time), and closes.
 * Multiple statements are off, so `COMMIT; DELETE …` cannot step out of the transaction, and so is LOAD DATA LOCAL,
 * with which a server may ask the client for one of its files.
 */
export class MysqlChecker implements Checker<'mysql'> {
  readonly type = 'mysql' as const;
  private readonly open = new Set<DatabaseSession>();

  constructor(private readonly deps: { outbound: OutboundGuards }) {}

  endpoint(target: CheckTarget<'mysql'>): Endpoint | null {
    return databaseEndpoint('mysql', target.connectionString);
  }

  check(target: CheckTarget<'mysql'>): Promise<ProbeResult> {
    return runDatabaseCheck('mysql', target, this.deps.outbound, this.open, mysqlQuery(target.query?.trim() || MYSQL_DEFAULT_QUERY));
  }

  close(): Promise<void> {
    return destroyAll(this.open);
  }
}

/** Every column as the text the server sent (the text protocol sends nothing else): `value` is what the mysql client prints. */
const rawText: QueryOptions['typeCast'] = (field) => field.string();

function mysqlQuery(query: string): DatabaseRun {
  return async (endpoint, lookup, remaining, track) => {
    const tls = tlsOptions(endpoint);
    const connection = createConnection({
      // Our socket, for the outbound policy's lookup (mysql2 has no lookup option); mysql2 still reads `host` for TLS.
      stream: connect({ host: endpoint.host, port: endpoint.port, lookup, noDelay: true }),
      host: endpoint.host,
      port: endpoint.port,
      user: endpoint.username || 'root',
      password: endpoint.password,
      database: endpoint.database || undefined,
      ssl: tls ? { rejectUnauthorized: tls.rejectUnauthorized, verifyIdentity: endpoint.tls === 'verify-full' } : undefined,
      connectTimeout: remaining(),
      multipleStatements: false,
      flags: ['-LOCAL_FILES', '-MULTI_STATEMENTS'],
    });
    // A connection that dies between statements emits 'error'; the pending call rejects with it anyway.
    connection.on('error', () => undefined);
    const session: DatabaseSession = { close: () => end(connection), destroy: () => connection.destroy() };
    track(session);
    await new Promise<void>((resolve, reject) => connection.connect((error) => (error ? reject(error) : resolve())));
    session.connected = true;
    const mariadb = /mariadb/i.test(serverVersion(connection));
    // MariaDB counts seconds (fractions allowed), MySQL milliseconds (SELECT only).
    await run(
      connection,
      mariadb ? `SET SESSION max_statement_time = ${remaining() / 1000}` : `SET SESSION max_execution_time = ${remaining()}`,
    );
    await run(connection, 'START TRANSACTION READ ONLY');
    const [rows] = await run(connection, query);
    const table = Array.isArray(rows) ? (rows as unknown[][]) : [];
    const first = table[0]?.[0] as string | null | undefined;
    return { rowCount: table.length, value: cutValue(first ?? null) };
  };
}

function run(connection: Connection, sql: string): Promise<[unknown, FieldPacket[] | undefined]> {
  return new Promise((resolve, reject) =>
    connection.query({ sql, rowsAsArray: true, typeCast: rawText }, (error, rows, fields) =>
      error ? reject(error) : resolve([rows, fields]),
    ),
  );
}

function end(connection: Connection): Promise<void> {
  return new Promise((resolve) => connection.end(() => resolve()));
}

function serverVersion(connection: Connection): string {
  return (
    (connection as unknown as { serverVersion?: string; _handshakePacket?: { serverVersion?: string } })._handshakePacket?.serverVersion ??
    ''
  );
}
