/**
 * Which errors mean "the database is unavailable" (answered 503, the caller may retry) rather than a bug in a query
 * (500). Errors arrive from Node's sockets, pg, pg-pool or TypeORM's `QueryFailedError` (which copies the driver's
 * fields), sometimes wrapped (`driverError`, `cause`, `AggregateError.errors`), so the whole chain is looked at.
 */

/** Socket failures on the way to the database. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'ENETUNREACH',
  'ENETDOWN',
  'EADDRNOTAVAIL',
  'EAI_AGAIN',
  'ENOTFOUND',
]);

/** PostgreSQL SQLSTATEs of an unavailable (not a wrong) database. */
function unavailableState(code: string): boolean {
  return (
    code.startsWith('08') || // connection exception
    code.startsWith('53') || // insufficient resources: disk full 53100, out of memory 53200, too many connections 53300
    code === '57P01' || // admin shutdown
    code === '57P02' || // crash shutdown
    code === '57P03' || // cannot connect now (starting up, recovering)
    code === '57014' || // statement timeout (DATABASE_STATEMENT_TIMEOUT_MS)
    code === '25006' || // read-only transaction: a standby after failover, or a database set read-only
    code === '58030' // I/O error
  );
}

/** SQLSTATEs that mean writes fail while reads may still work (what /api/health reports as "writes failing"). */
export function isWriteFailureState(code: string): boolean {
  return code.startsWith('53') || code === '25006' || code === '58030';
}

/** pg and pg-pool report lost connections and timeouts with these texts and no code. */
const UNAVAILABLE_MESSAGES = [
  /^timeout exceeded when trying to connect$/,
  /^Connection terminated/,
  /^Query read timeout$/,
  /is not queryable$/,
  /^timeout expired$/,
];

function chain(error: unknown): Array<Record<string, unknown>> {
  const seen: Array<Record<string, unknown>> = [];
  const queue: unknown[] = [error];
  while (queue.length > 0 && seen.length < 16) {
    const item = queue.shift();
    if (typeof item !== 'object' || item === null || seen.includes(item as Record<string, unknown>)) continue;
    const record = item as Record<string, unknown>;
    seen.push(record);
    queue.push(record.driverError, record.cause, ...(Array.isArray(record.errors) ? record.errors : []));
  }
  return seen;
}

export function isDatabaseUnavailable(error: unknown): boolean {
  return chain(error).some(({ code, message }) => {
    if (typeof code === 'string' && (NETWORK_CODES.has(code) || (/^[0-9A-Z]{5}$/.test(code) && unavailableState(code)))) {
      return true;
    }
    return typeof message === 'string' && UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(message));
  });
}

/** The SQLSTATE of a failed statement, if any. */
export function sqlState(error: unknown): string | null {
  for (const { code } of chain(error)) if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  return null;
}
