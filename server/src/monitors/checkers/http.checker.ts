import type { AppConfig } from '../../config/config';
import { HttpChecker as CurrentHttpChecker } from '../http-checker';
import type { CheckTarget, Checker, ProbeResult } from './checker';

/**
 * Placeholder so the registry compiles: delegates to the HTTP checker of today (`../http-checker.ts`), which the http
 * helper of issue 16 moves here at merge.
 */
export class HttpChecker implements Checker<'http'> {
  readonly type = 'http' as const;
  private readonly current: CurrentHttpChecker;

  constructor(config: AppConfig) {
    this.current = new CurrentHttpChecker(config);
  }

  /** How long each check's network work took, for /api/metrics. */
  get requests() {
    return this.current.requests;
  }

  async check(target: CheckTarget<'http'>): Promise<ProbeResult> {
    const result = await this.current.check(target);
    return { ...result, observed: result.statusCode === null ? {} : { statusCode: result.statusCode } };
  }

  close(): Promise<void> {
    return this.current.onModuleDestroy();
  }
}
