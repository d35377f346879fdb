import { isIP, type LookupFunction } from 'node:net';
import type { ConnectionOptions } from 'node:tls';
import { SECRET_MASK } from '@vigil/proto';
import {
  describeRefusal,
  guardedLookup,
  literalRefusal,
  outboundRefusal,
  type OutboundGuards,
  type OutboundScope,
} from '../../common/outbound';
import type { Endpoint, Observed, ProbeResult } from './checker';

/**
 * What the PostgreSQL, MySQL and Redis checkers share: reading a connection string (a URL; never echoed, since it holds
 * a password), the outbound policy on the addresses connected to, one hard time limit for connect + query, and error texts with
 * the credentials taken out.
 */

export type DatabaseType = 'postgres' | 'mysql' | 'redis';

/** `off`: plain TCP; `encrypt`: TLS without verifying the certificate; `verify-ca`: chain only; `verify-full`: chain and name. */
export type TlsMode = 'off' | 'encrypt' | 'verify-ca' | 'verify-full';

export interface DatabaseEndpoint {
  /** As written in the string (IPv6 without brackets): what TLS verifies the certificate against. */
  host: string;
  port: number;
  /** Percent-decoded; '' when absent. */
  username: string;
  password: string;
  /** The path without its slash ('' when absent); for Redis the database number. */
  database: string;
  tls: TlsMode;
}

/**
 * A connection string that cannot be used; its message never contains the string. `url`: not a URL of the type with
 * a host; `setting`: a parameter or database the checker cannot honour.
 */
export class ConnectionStringError extends Error {
  readonly code = 'ECONNSTRING';
  constructor(
    message: string,
    readonly reason: 'url' | 'setting' = 'url',
  ) {
    super(message);
  }
}

/** Connection-string schemes each database type accepts. */
export const CONNECTION_SCHEMES: Record<DatabaseType, readonly string[]> = {
  postgres: ['postgres:', 'postgresql:'],
  mysql: ['mysql:', 'mariadb:'],
  redis: ['redis:', 'rediss:'],
};
const DEFAULT_PORTS: Record<DatabaseType, number> = { postgres: 5432, mysql: 3306, redis: 6379 };

/** The TLS settings each type reads from its query string (libpq's `sslmode`, MySQL's `ssl-mode`, go-redis's `skip_verify`). */
const TLS_PARAMETERS: Record<DatabaseType, Record<string, Record<string, TlsMode>>> = {
  postgres: {
    sslmode: {
      disable: 'off',
      allow: 'off',
      prefer: 'off',
      require: 'encrypt',
      'no-verify': 'encrypt',
      'verify-ca': 'verify-ca',
      'verify-full': 'verify-full',
    },
  },
  mysql: Object.fromEntries(
    ['ssl-mode', 'sslmode'].map((name) => [
      name,
      { disabled: 'off', preferred: 'off', required: 'encrypt', verify_ca: 'verify-ca', verify_identity: 'verify-full' },
    ]),
  ),
  redis: { skip_verify: { true: 'encrypt', false: 'verify-full' } },
};
/** Parameters accepted and left to the monitor's own settings (its timeout rules the connect time). */
const IGNORED_PARAMETERS: Record<DatabaseType, readonly string[]> = {
  postgres: ['application_name', 'connect_timeout'],
  mysql: ['connect_timeout', 'connectTimeout'],
  redis: [],
};

/**
 * Reads `scheme://[user[:password]@]host[:port][/database][?parameters]`. Other parameters are refused rather than
 * ignored: one that would change the host or read a file on this server (`host=`, `sslcert=`) must not pass silently.
 */
export function parseConnectionString(type: DatabaseType, text: string): DatabaseEndpoint {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new ConnectionStringError('The connection string is not a valid URL');
  }
  if (!CONNECTION_SCHEMES[type].includes(url.protocol)) {
    throw new ConnectionStringError(
      `The connection string must start with ${CONNECTION_SCHEMES[type].map((scheme) => `${scheme}//`).join(' or ')}`,
    );
  }
  const host = decode(url.hostname).replace(/^\[|\]$/g, '');
  if (host === '') throw new ConnectionStringError('The connection string has no host (Unix sockets are not supported)');
  const port = url.port === '' ? DEFAULT_PORTS[type] : Number(url.port);
  let tls: TlsMode = type === 'redis' && url.protocol === 'rediss:' ? 'verify-full' : 'off';
  for (const [name, value] of url.searchParams) {
    const modes = TLS_PARAMETERS[type][name];
    if (modes) {
      const mode = modes[value.toLowerCase()];
      if (!mode) throw new ConnectionStringError(`${name} must be one of ${Object.keys(modes).join(', ')}`, 'setting');
      // skip_verify only loosens rediss://; it does not turn TLS on.
      if (type !== 'redis' || tls !== 'off') tls = mode;
      continue;
    }
    if (IGNORED_PARAMETERS[type].includes(name)) continue;
    const known = [...Object.keys(TLS_PARAMETERS[type]), ...IGNORED_PARAMETERS[type]];
    throw new ConnectionStringError(`The connection string may only carry these parameters: ${known.join(', ')}`, 'setting');
  }
  const database = decode(url.pathname.replace(/^\//, ''));
  if (type === 'redis' && database !== '' && !/^\d{1,5}$/.test(database)) {
    throw new ConnectionStringError('The Redis database (the path) must be a number', 'setting');
  }
  return { host, port, username: decode(url.username), password: decode(url.password), database, tls };
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The host and port a connection string connects to, or null for one the checker would refuse anyway. */
export function databaseEndpoint(type: DatabaseType, text: string): Endpoint | null {
  try {
    const { host, port } = parseConnectionString(type, text);
    return { host, port };
  } catch {
    return null;
  }
}

/** TLS options: the certificate is judged against the host written in the string (SNI for a name). */
export function tlsOptions(endpoint: DatabaseEndpoint): ConnectionOptions | null {
  if (endpoint.tls === 'off') return null;
  const options: ConnectionOptions = { rejectUnauthorized: endpoint.tls !== 'encrypt' };
  // SNI takes names only (RFC 6066); with an IP literal, Node verifies against the address itself.
  if (isIP(endpoint.host) === 0) options.servername = endpoint.host;
  else options.host = endpoint.host;
  if (endpoint.tls === 'verify-ca') options.checkServerIdentity = () => undefined;
  return options;
}

/**
 * The texts that must never reach a check's error: the whole connection string and its password, decoded and as
 * written (percent-encoded), longest first so a part never leaves the rest of a longer one behind.
 */
export function secretsOf(connectionString: string): string[] {
  const secrets = new Set<string>([connectionString, connectionString.trim()]);
  const add = (written: string) => {
    for (const form of [written, decode(written), encodeURIComponent(decode(written))]) secrets.add(form);
  };
  // As a URL parser reads it, and up to the last @: a password with an unescaped `#`, `/` or `?` is misread as a
  // port or path by the parser (and may then surface in a driver's message as one).
  const text = connectionString.trim();
  const parsed = /^[a-z][a-z0-9+.-]*:\/\/([^@/?#]*)@/i.exec(text)?.[1] ?? '';
  const sloppy = /^[a-z][a-z0-9+.-]*:\/\/(.*)@/is.exec(text)?.[1] ?? '';
  for (const userinfo of [parsed, sloppy]) {
    const colon = userinfo.indexOf(':');
    if (colon !== -1) add(userinfo.slice(colon + 1));
  }
  return [...secrets].filter((secret) => secret !== '').sort((a, b) => b.length - a.length);
}

/** `text` with every secret, and any `scheme://user:password@` a driver may print, replaced by the mask. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let redacted = text;
  for (const secret of secrets) redacted = redacted.split(secret).join(SECRET_MASK);
  return redacted.replace(/([a-z][a-z0-9+.-]*:\/\/)[^\s/@]*@/gi, `$1${SECRET_MASK}@`);
}

/** The whole check (connect and query) ran out of its time. */
export class CheckTimeoutError extends Error {
  readonly code = 'ECHECKTIMEOUT';
}

const ERROR_MAX = 500;
/** How pg and ioredis word their own connect and command timeouts (they carry no code). */
const DRIVER_TIMEOUT = /^(Command timed out|Connection terminated due to connection timeout|Query read timeout|timeout expired)/;
const TIMEOUT_CODES = new Set([
  'ECHECKTIMEOUT',
  'ETIMEDOUT',
  '57014',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_STATEMENT_TIMEOUT',
  'ER_QUERY_TIMEOUT',
]);

/** A failure as the check history shows it: network failures in our words, server errors with credentials taken out. */
export function describeDatabaseFailure(error: unknown, timeoutSeconds: number, secrets: readonly string[]): string {
  const failure = (error ?? {}) as { code?: string | number; message?: string; errno?: number };
  const code = String(failure.code ?? '');
  const refused = outboundRefusal(error);
  if (refused) return describeRefusal(refused);
  if (error instanceof ConnectionStringError) return error.message;
  // MySQL 3024 (max_execution_time), MariaDB 1969 (max_statement_time); ioredis says it in words.
  if (TIMEOUT_CODES.has(code) || failure.errno === 3024 || failure.errno === 1969 || DRIVER_TIMEOUT.test(failure.message ?? '')) {
    return `Timeout after ${timeoutSeconds} s`;
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME') return 'DNS lookup failed: host not found';
  if (code === 'ECONNREFUSED') return 'Connection refused';
  if (code === 'ECONNRESET' || code === 'EPIPE') return 'Connection reset by the server';
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return 'Host unreachable';
  const message = redactSecrets(failure.message ?? '', secrets).trim();
  if (/CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY|HOSTNAME_MISMATCH/.test(code)) return `TLS error: ${cut(message || code)}`;
  return cut(message || redactSecrets(code, secrets) || 'Connection failed');
}

function cut(text: string): string {
  return text.length > ERROR_MAX ? `${text.slice(0, ERROR_MAX - 1)}…` : text;
}

/** Longest `value` a check records (as the HTTP body). */
export const VALUE_MAX = 64 * 1024;

export function cutValue(value: string | null): string | null {
  return value !== null && value.length > VALUE_MAX ? value.slice(0, VALUE_MAX) : value;
}

/** One open connection of a check: closed politely when done, destroyed at once on timeout or shutdown. */
export interface DatabaseSession {
  close(): Promise<void>;
  destroy(): void;
  /** Set by the run once connected and signed in: only then is a polite close worth waiting for. */
  connected?: boolean;
}

/**
 * The query part of a check: connects to `endpoint` with `lookup` as its socket's lookup (every address the name
 * resolves to is judged by the outbound policy, and the socket tries the allowed ones as it would any) and runs the query.
 */
export type DatabaseRun = (
  endpoint: DatabaseEndpoint,
  lookup: LookupFunction,
  /** Milliseconds left of the check's time, for the drivers' own connect and statement timeouts. */
  remaining: () => number,
  /** Called with the connection as soon as it exists, so the time limit can cut it even mid-handshake. */
  track: (session: DatabaseSession) => void,
) => Promise<Observed>;

const CLOSE_GRACE_MS = 1000;

/**
 * One check: parse, resolve, connect and query within `timeout` seconds. The drivers' own timeouts end most slow
 * checks; a race destroys the socket of any that outlive the time anyway (a server that accepts and never answers).
 */
export async function runDatabaseCheck(
  type: DatabaseType,
  target: { connectionString: string; timeout: number; scope: OutboundScope },
  outbound: OutboundGuards,
  open: Set<DatabaseSession>,
  run: DatabaseRun,
): Promise<ProbeResult> {
  const checkedAt = new Date();
  const started = performance.now();
  const limitMs = target.timeout * 1000;
  const secrets = secretsOf(target.connectionString);
  const tracked: { session?: DatabaseSession } = {};
  let timer: NodeJS.Timeout | undefined;
  let timedOut = false;
  const track = (opened: DatabaseSession) => {
    tracked.session = opened;
    open.add(opened);
  };
  try {
    const work = (async () => {
      const endpoint = parseConnectionString(type, target.connectionString);
      // An IP literal is connected to without a lookup: judged here.
      const guard = outbound.guard(target.scope);
      const refused = literalRefusal(guard, endpoint.host, endpoint.port);
      if (refused) throw refused;
      const lookup = guardedLookup(guard, endpoint.port) as unknown as LookupFunction;
      return run(endpoint, lookup, () => Math.max(1, Math.round(limitMs - (performance.now() - started))), track);
    })();
    const deadline = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => {
        timedOut = true;
        reject(new CheckTimeoutError(`Timeout after ${target.timeout} s`));
      }, limitMs);
    });
    work.catch(() => undefined);
    const observed = await Promise.race([work, deadline]);
    const responseTime = Math.round(performance.now() - started);
    return { ok: true, statusCode: null, responseTime, error: null, checkedAt, observed };
  } catch (error) {
    return {
      ok: false,
      statusCode: null,
      responseTime: null,
      error: describeDatabaseFailure(error, target.timeout, secrets),
      checkedAt,
      observed: {},
    };
  } finally {
    clearTimeout(timer);
    if (tracked.session) await closeSession(tracked.session, open, timedOut);
  }
}

/**
 * Closes politely (bounded) a connection that got as far as signing in, so the server logs no broken connection for
 * a failing query; one that timed out or never connected is destroyed at once, as it may never answer.
 */
async function closeSession(session: DatabaseSession, open: Set<DatabaseSession>, timedOut: boolean): Promise<void> {
  let grace: NodeJS.Timeout | undefined;
  try {
    if (timedOut || !session.connected) return;
    await Promise.race([
      session.close().catch(() => undefined),
      new Promise<void>((resolve) => {
        grace = setTimeout(resolve, CLOSE_GRACE_MS);
      }),
    ]);
  } finally {
    clearTimeout(grace);
    session.destroy();
    open.delete(session);
  }
}

/** Destroys every connection still open (checker shutdown). */
export function destroyAll(open: Set<DatabaseSession>): Promise<void> {
  for (const session of open) session.destroy();
  open.clear();
  return Promise.resolve();
}
