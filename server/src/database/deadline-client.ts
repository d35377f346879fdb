import { Client } from 'pg';

/** Time after the server-side `statement_timeout` during which the database may still answer before the link counts as dead. */
export const READ_GRACE_MS = 2000;

/**
 * A pg client that gives up on a silent database. PostgreSQL cancels a slow statement itself (`statement_timeout`);
 * no answer at all even after that means the link is dead (packets dropped), and TCP would wait for minutes. The
 * connection is then destroyed, which fails the query ("Connection terminated", answered 503) and makes the pool drop
 * the client instead of handing it out again stuck. (pg's own `query_timeout` fails the query but keeps the client.)
 */
export class DeadlineClient extends Client {
  /** 0 turns the deadline off (migrations may legitimately run long). */
  readTimeoutMs = 0;

  // pg's query has many overloads; this only watches the promise form TypeORM uses and passes everything through.
  override query(...args: unknown[]): never {
    const result = (super.query as (...a: unknown[]) => unknown)(...args);
    if (this.readTimeoutMs > 0 && result instanceof Promise) {
      const timer = setTimeout(() => {
        (this as unknown as { connection: { stream: { destroy(error: Error): void } } }).connection.stream.destroy(
          new Error('Query read timeout'),
        );
      }, this.readTimeoutMs);
      const clear = () => clearTimeout(timer);
      result.then(clear, clear);
    }
    return result as never;
  }
}

/** A DeadlineClient class whose instances start with the given deadline (pg-pool constructs clients itself). */
export function deadlineClientClass(readTimeoutMs: number): typeof DeadlineClient {
  return class extends DeadlineClient {
    override readTimeoutMs = readTimeoutMs;
  };
}
