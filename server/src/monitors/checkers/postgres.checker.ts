import type { AppConfig } from '../../config/config';
import type { CheckTarget, Checker, ProbeResult } from './checker';

/** Placeholder so the registry compiles; the postgres checker of issue 16 replaces this file at merge. */
export class PostgresChecker implements Checker<'postgres'> {
  readonly type = 'postgres' as const;

  constructor(readonly config: AppConfig) {}

  async check(_target: CheckTarget<'postgres'>): Promise<ProbeResult> {
    return { ok: false, statusCode: null, responseTime: null, error: 'not implemented', checkedAt: new Date(), observed: {} };
  }
}
