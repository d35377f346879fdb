import type { AfterQueryEvent, EntitySubscriberInterface } from 'typeorm';
import { isWriteFailureState, sqlState } from '../common/database-errors';

/**
 * Writes count as failing for this long after the last failure. Successes do not clear it early: on a full disk small
 * in-place updates may still succeed while inserts fail, and health must not flap between the two.
 */
export const WRITE_FAILURE_MEMORY_MS = 10_000;

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

  /** A write failed within the last WRITE_FAILURE_MEMORY_MS. */
  failing(): boolean {
    return this.lastFailureAt > 0 && this.now() - this.lastFailureAt < WRITE_FAILURE_MEMORY_MS;
  }

  /** Milliseconds since any write was seen to succeed or fail (Infinity when none was). */
  sinceLastOutcome(): number {
    const last = Math.max(this.lastFailureAt, this.lastSuccessAt);
    return last === 0 ? Infinity : this.now() - last;
  }
}
