import type { Checker, ProbeResult } from '../../checkers/checker';

/**
 * A manual monitor reaches nothing and is never scheduled: its status is what an operator set by hand or through
 * `POST /api/monitors/{id}/status`. Registered so the registry stays total; a check that still reached it fails
 * rather than inventing a status.
 */
export class ManualChecker implements Checker<'manual'> {
  readonly type = 'manual' as const;

  endpoint(): null {
    return null;
  }

  async check(): Promise<ProbeResult> {
    return {
      ok: false,
      statusCode: null,
      responseTime: null,
      error: 'A manual monitor is not checked: its status is set by hand',
      checkedAt: new Date(),
      observed: {},
    };
  }
}
