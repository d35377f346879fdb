import { Injectable } from '@nestjs/common';
import { notFound } from '../common/api-exception';
import { bucketPolicy } from '../common/limits/limit-store';
import { Limiter } from '../common/limits/limiter';
import type { EventMap } from '../events/event-map';
import { OnEvent } from '../events/on-event.decorator';
import { judge, storedFields } from './check-pipeline';
import { CheckResultsWriter } from './check-results.writer';
import { CheckScheduler } from './check-scheduler.service';
import type { CheckTarget, ProbeResult } from './checkers/checker';
import { toCheckTarget } from './monitor.mapper';
import { MonitorsRepository } from './monitors.repository';
import type { PushQuery } from './push.dto';

/** What a push token may look like: anything else is unknown without a database look-up. */
export const TOKEN_SHAPE = /^[A-Za-z0-9_-]{1,64}$/;
/** Push monitors kept by token at most, and how long one is trusted without a change event (a missed relay). */
const KNOWN_MAX = 50_000;
const KNOWN_FOR_MS = 5 * 60_000;

/** Per address, every push: one host (or NAT address) may run cron jobs for thousands of monitors. */
export const PUSHES_PER_ADDRESS = bucketPolicy('push-address', { burst: 1_000, perMinute: 10_000 });
/** Per address, pushes that name no monitor: guessing tokens stops after a few, before any lookup. */
export const PUSH_MISSES_PER_ADDRESS = bucketPolicy('push-misses', { burst: 20, perMinute: 60 });
/** Per token: pushing faster than every few seconds tells nothing more. */
export const PUSHES_PER_TOKEN = bucketPolicy('push-token', { burst: 10, perMinute: 30 });

/** What a push needs of its monitor. */
interface PushMonitor {
  id: number;
  active: boolean;
  target: CheckTarget;
  at: number;
}

/**
 * Pushes (`/api/push/{token}`): each is a check of its push monitor, stored through the same writer and state
 * machine as any other (like a manual check: no slot, the rhythm unchanged), and starts the wait for the next one.
 */
@Injectable()
export class PushService {
  /**
   * Push monitors by token, so a push costs no look-up: at thousands of push monitors that read was a query per push.
   * Dropped on every change of the monitor on any instance (pause, edit, token, delete; the events cross instances),
   * after KNOWN_FOR_MS, and when the writer finds the monitor gone.
   */
  private readonly known = new Map<string, PushMonitor>();
  private readonly tokens = new Map<number, string>();

  constructor(
    private readonly monitors: MonitorsRepository,
    private readonly writer: CheckResultsWriter,
    private readonly scheduler: CheckScheduler,
    private readonly limiter: Limiter,
  ) {}

  async push(token: string, query: PushQuery, address: string): Promise<void> {
    await this.limiter.take(PUSHES_PER_ADDRESS, address);
    await this.limiter.check(PUSH_MISSES_PER_ADDRESS, address);
    if (!TOKEN_SHAPE.test(token)) throw await this.miss(address);
    await this.limiter.take(PUSHES_PER_TOKEN, token);
    const monitor = await this.monitorOf(token);
    if (!monitor) throw await this.miss(address);
    // A paused monitor records nothing; the answer says why, so a cron job's log shows it.
    if (!monitor.active) throw notFound('push.paused');
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
    const verdict = judge(monitor.target, probe);
    // In the writer's next batch (within 200 ms), not a transaction of its own: at thousands of push monitors, pushes
    // flushing at once would split every batch.
    const recorded = await this.writer.record({
      monitorId: monitor.id,
      ...storedFields(verdict),
      rhythmNext: null,
      slotAt: null,
      pushed: true,
    });
    if (!recorded) {
      // Deleted meanwhile (or by a cascade that raised no event).
      this.forget(monitor.id);
      throw await this.miss(address);
    }
    this.scheduler.pushed(monitor.id, probe.checkedAt);
  }

  @OnEvent('monitor.updated', { everyInstance: true })
  @OnEvent('monitor.deleted', { everyInstance: true })
  changed({ monitor }: Pick<EventMap['monitor.updated'], 'monitor'>): void {
    this.forget(monitor.id);
  }

  private async monitorOf(token: string): Promise<PushMonitor | null> {
    const now = Date.now();
    const known = this.known.get(token);
    if (known && now - known.at < KNOWN_FOR_MS) return known;
    if (known) this.forget(known.id);
    const row = await this.monitors.findByPushToken(token);
    if (!row) return null;
    const monitor = { id: row.id, active: row.active, target: toCheckTarget(row), at: now };
    this.forget(row.id);
    this.known.set(token, monitor);
    this.tokens.set(row.id, token);
    if (this.known.size > KNOWN_MAX) this.forget(this.known.values().next().value!.id);
    return monitor;
  }

  private forget(monitorId: number): void {
    const token = this.tokens.get(monitorId);
    if (token === undefined) return;
    this.tokens.delete(monitorId);
    this.known.delete(token);
  }

  private async miss(address: string): Promise<Error> {
    await this.limiter.wait(PUSH_MISSES_PER_ADDRESS, address);
    return notFound('push.notFound');
  }
}
