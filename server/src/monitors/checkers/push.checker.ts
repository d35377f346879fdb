import type { CheckTarget, Checker, ProbeResult } from './checker';

/** Where a push monitor's wait started: its last push, or its creation, resume or change into a push monitor. */
export interface PushClock {
  pushAwaitedSince(monitorId: number): Promise<Date | null>;
}

/**
 * A push monitor's scheduled check: pushes arrive on `/api/push/{token}` and are stored as checks there; this only
 * judges silence. Late (down) when no push came within `interval` seconds of the wait's start; the state machine's
 * retries then give `retryInterval` seconds of grace each while pending. Nothing to record otherwise.
 */
export class PushChecker implements Checker<'push'> {
  readonly type = 'push' as const;

  constructor(private readonly clock: PushClock) {}

  async check(target: CheckTarget<'push'>): Promise<ProbeResult | null> {
    const since = await this.clock.pushAwaitedSince(target.id);
    const checkedAt = new Date();
    if (!since || checkedAt.getTime() - since.getTime() <= target.interval * 1000) return null;
    return {
      ok: false,
      statusCode: null,
      responseTime: null,
      error: `No push received within ${target.interval} s`,
      checkedAt,
      observed: {},
      awaitedSince: since,
    };
  }
}
