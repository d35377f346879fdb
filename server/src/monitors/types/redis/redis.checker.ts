import { connect as connectTcp, type LookupFunction } from 'node:net';
import { type ConnectionOptions, connect as connectTls } from 'node:tls';
import Redis, { AbstractConnector, type RedisOptions } from 'ioredis';
import { isAllowedRedisCommand, parseRedisCommand, REDIS_READ_COMMANDS } from '@vigil/proto';
import type { OutboundGuards } from '../../../common/outbound';
import type { Checker, CheckTarget, Endpoint, ProbeResult } from '../../checkers/checker';
import {
  cutValue,
  type DatabaseEndpoint,
  type DatabaseRun,
  type DatabaseSession,
  destroyAll,
  runDatabaseCheck,
  databaseEndpoint,
  tlsOptions,
} from '../../checkers/database-connection';

export const REDIS_DEFAULT_COMMAND = 'PING';

/**
 * Redis: opens a connection per check, runs one command from a list of bounded reads (isAllowedRedisCommand) and
 * closes. `value` is the reply as text: a bulk or status string as is, a number in decimal, an array as JSON.
 */
export class RedisChecker implements Checker<'redis'> {
  readonly type = 'redis' as const;
  private readonly open = new Set<DatabaseSession>();

  constructor(private readonly deps: { outbound: OutboundGuards }) {}

  endpoint(target: CheckTarget<'redis'>): Endpoint | null {
    return databaseEndpoint('redis', target.connectionString);
  }

  check(target: CheckTarget<'redis'>): Promise<ProbeResult> {
    const line = target.query?.trim() || REDIS_DEFAULT_COMMAND;
    const words = parseRedisCommand(line);
    if (!words || !isAllowedRedisCommand(line)) {
      // Saved monitors were checked on save; this guards rows written before or around that rule.
      const error = words
        ? `Redis command ${words[0].toUpperCase()} is not allowed: a monitor runs only ${REDIS_READ_COMMANDS.join(', ')}`
        : 'The Redis command has an unclosed quote';
      return Promise.resolve({ ok: false, statusCode: null, responseTime: null, error, checkedAt: new Date(), observed: {} });
    }
    return runDatabaseCheck('redis', target, this.deps.outbound, this.open, redisCommand(words));
  }

  close(): Promise<void> {
    return destroyAll(this.open);
  }
}

function redisCommand([command, ...args]: string[]): DatabaseRun {
  return async (endpoint, lookup, remaining, track) => {
    const tls = tlsOptions(endpoint);
    const redis = new Redis({
      Connector: guardedConnector(endpoint, tls, lookup),
      host: endpoint.host,
      port: endpoint.port,
      username: endpoint.username || undefined,
      password: endpoint.password || undefined,
      db: endpoint.database === '' ? 0 : Number(endpoint.database),
      tls: tls ?? undefined,
      lazyConnect: true,
      connectTimeout: remaining(),
      commandTimeout: remaining(),
      // One attempt, no reconnecting, no queueing: the check reports what this one connection saw.
      retryStrategy: () => null,
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
      enableReadyCheck: false,
      autoResubscribe: false,
      reconnectOnError: null,
    });
    let firstError: Error | null = null;
    // ioredis reports connection failures as events; without a listener it prints them to stderr.
    redis.on('error', (error: Error) => {
      firstError ??= error;
    });
    const session: DatabaseSession = { close: () => redis.quit().then(() => undefined), destroy: () => redis.disconnect() };
    track(session);
    try {
      await redis.connect();
      const reply: unknown = await redis.call(command, ...args);
      // Only now: ioredis reports "ready" before the server has answered AUTH.
      session.connected = true;
      return { value: cutValue(replyText(reply)) };
    } catch (error) {
      // A refused AUTH or SELECT closes the connection: the command then fails with "Connection is closed" or
      // "Stream isn't writeable", while the reason came as an 'error' event.
      throw firstError ?? error;
    }
  };
}

/**
 * ioredis's standalone connector with the outbound policy's lookup on the socket (ioredis passes no lookup to its own).
 * The stream ends as ioredis's does: at `disconnect()`, politely, destroyed after 2 s.
 */
function guardedConnector(
  endpoint: DatabaseEndpoint,
  tls: ConnectionOptions | null,
  lookup: LookupFunction,
): NonNullable<RedisOptions['Connector']> {
  return class GuardedConnector extends AbstractConnector {
    constructor() {
      super(2000);
    }

    connect() {
      this.connecting = true;
      const target = { host: endpoint.host, port: endpoint.port, lookup };
      this.stream = tls ? connectTls({ ...tls, ...target }) : connectTcp(target);
      this.stream.once('error', (error: Error) => {
        this.firstError = error;
      });
      return Promise.resolve(this.stream);
    }
  };
}

/** A Redis reply as text (RESP2 through ioredis: strings, integers, nil, arrays of those). */
export function replyText(reply: unknown): string | null {
  if (reply === null || reply === undefined) return null;
  if (typeof reply === 'string') return reply;
  if (Buffer.isBuffer(reply)) return reply.toString('utf8');
  if (Array.isArray(reply)) return JSON.stringify(plain(reply));
  return String(reply);
}

function plain(reply: unknown): unknown {
  if (Buffer.isBuffer(reply)) return reply.toString('utf8');
  return Array.isArray(reply) ? reply.map(plain) : reply;
}
