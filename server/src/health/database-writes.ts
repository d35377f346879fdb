import type { AfterQueryEvent, EntitySubscriberInterface } from 'typeorm';
import { isWriteFailureState, sqlState } from '../common/database-errors';

/** A write failure counts for this long unless a write succeeds after it. */
export const WRITE_FAILURE_MEMORY_MS = 60_000;

const WRITE_STATEMENT = /^\s*(INSERT|UPDATE|DELETE)\b/i;

/**
 * Watches every statement's outcome (a TypeORM subscriber, so writers in every module count) for failures that mean
 * the database refuses writes while reads still work: disk full (53100) and other resource errors, read-only, I/O.
 * `SELECT 1` cannot see those, so `/api/health` asks this too.
 */
export class DatabaseWrites implements EntitySubscriberInterface {
  private lastFailureAt = 0;
  private lastSuccessAt = 0;

  constructor(private readonly now: () => number = Date.now) {}

  afterQuery(event: AfterQueryEvent): void {
    if (event.success) {
      if (WRITE_STATEMENT.test(event.query)) this.lastSuccessAt = this.now();
      return;
    }
    const state = sqlState(event.error);
    if (state && isWriteFailureState(state)) this.lastFailureAt = this.now();
  }

  /** A write failed recently and no write has succeeded since. */
  failing(): boolean {
    return this.lastFailureAt > this.lastSuccessAt && this.now() - this.lastFailureAt < WRITE_FAILURE_MEMORY_MS;
  }

  /** Milliseconds since the last successful write (Infinity when none was seen). */
  sinceLastSuccess(): number {
    return this.lastSuccessAt === 0 ? Infinity : this.now() - this.lastSuccessAt;
  }
}
