import type { Checker, CheckTarget, ProbeResult } from '../../checkers/checker';

/**
 * A push monitor's scheduled check: pushes arrive on `/api/push/{token}` and are stored as checks there; this only
 * states silence. The verdict is "down unless a push came within `interval` seconds", and the writer judges it
 * against the stored wait under the monitor's row lock (dropping it when a push came): no read of its own per check,
 * and a push arriving as the verdict is made always wins. The state machine's retries then give `retryInterval`
 * seconds of grace each while pending.
 */
export class PushChecker implements Checker<'push'> {
  readonly type = 'push' as const;

  /** A push monitor reaches nothing: its pushes come to Vigil. */
  endpoint(): null {
    return null;
  }

  async check(target: CheckTarget<'push'>): Promise<ProbeResult> {
    return {
      ok: false,
      statusCode: null,
      responseTime: null,
      error: `No push received within ${target.interval} s`,
      checkedAt: new Date(),
      observed: {},
      silentFor: target.interval,
    };
  }
}
