import { Injectable } from '@nestjs/common';
import { notFound } from '../common/api-exception';
import { RateLimiter } from '../common/rate-limiter';
import { judge, storedFields } from './check-pipeline';
import { CheckResultsWriter } from './check-results.writer';
import type { ProbeResult } from './checkers/checker';
import { toCheckTarget } from './monitor.mapper';
import { MonitorsRepository } from './monitors.repository';
import type { PushQuery } from './push.dto';

/** What a push token may look like: anything else is unknown without a database look-up. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Pushes (`/api/push/{token}`): each is a check of its push monitor, stored through the same writer and state
 * machine as any other (like a manual check: no slot, the rhythm unchanged), and starts the wait for the next one.
 */
@Injectable()
export class PushService {
  /** Per address, every push: one host (or NAT address) may run cron jobs for thousands of monitors. */
  private readonly perAddress = new RateLimiter({ burst: 1_000, perMinute: 10_000 });
  /** Per address, pushes that name no monitor: guessing tokens stops after a few, before any lookup. */
  private readonly missesPerAddress = new RateLimiter({ burst: 20, perMinute: 60 });
  /** Per token: pushing faster than every few seconds tells nothing more. */
  private readonly perToken = new RateLimiter({ burst: 10, perMinute: 30 });

  constructor(
    private readonly monitors: MonitorsRepository,
    private readonly writer: CheckResultsWriter,
  ) {}

  async push(token: string, query: PushQuery, address: string): Promise<void> {
    this.perAddress.take([address]);
    this.missesPerAddress.check([address]);
    if (!TOKEN_SHAPE.test(token)) throw this.miss(address);
    this.perToken.take([token]);
    const row = await this.monitors.findByPushToken(token);
    if (!row) throw this.miss(address);
    // A paused monitor records nothing; the answer says why, so a cron job's log shows it.
    if (!row.active) throw notFound('push.paused');
    const up = (query.status ?? 'up') === 'up';
    const message = query.msg?.trim() ?? '';
    const probe: ProbeResult = {
      ok: up,
      statusCode: null,
      responseTime: query.ping === undefined ? null : Math.round(query.ping),
      error: up ? null : message || 'Push reported down',
      checkedAt: new Date(),
      observed: { body: message },
    };
    const verdict = judge(toCheckTarget(row), probe);
    // In the writer's next batch (within 200 ms), not a transaction of its own: at thousands of push monitors, pushes
    // flushing at once would split every batch.
    await this.writer.record({ monitorId: row.id, ...storedFields(verdict), rhythmNext: null, slotAt: null, pushed: true });
  }

  private miss(address: string): Error {
    this.missesPerAddress.take([address]);
    return notFound('push.notFound');
  }
}
