import { Inject, Injectable, Logger, OnModuleDestroy, Optional } from '@nestjs/common';
import { SERVER_LOCATION, type MonitorType } from '@vigil/proto';
import { DataSource } from 'typeorm';
import type { OutboundDeniedError } from '../common/outbound';
import { OutboundPolicy } from '../common/outbound-policy';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { createCheckers, type Checker, type CheckerRegistry, type CheckTarget, type ProbeResult } from './checkers';
import { judge, withoutSecret, type CheckVerdict } from './checkers/verdict';
import { isServerOnly, LocationVerdicts, type Located } from './locations/location-verdicts';

export { judge, storedFields, type CheckVerdict } from './checkers/verdict';

/**
 * The one path of every check, whatever its type: pick the type's checker, run it on the monitor's target, evaluate
 * the assertions on what it saw, and answer what the writer stores. Schedulers, the manual check, the push route and
 * `POST /api/monitors/test` all go through here.
 */
@Injectable()
export class CheckPipeline implements OnModuleDestroy {
  private readonly logger = new Logger(CheckPipeline.name);
  readonly checkers: CheckerRegistry;

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly outbound: OutboundPolicy,
    /** Absent where only single checks run (tests of one checker): every target is then checked here. */
    @Optional() private readonly locations?: LocationVerdicts,
    /** What container checks read their agent's last report from; absent in tests of other checkers. */
    @Optional() database?: DataSource,
  ) {
    this.checkers = createCheckers({ config, outbound, database });
  }

  /**
   * Why the target may not be saved or tested (a refused address or one of Vigil's own services), or null. Judged on
   * what its host resolves to now; every check judges again at connect time.
   */
  async refusal(target: CheckTarget): Promise<OutboundDeniedError | null> {
    const endpoint = (this.checkers[target.type] as Checker<MonitorType>).endpoint(target);
    return endpoint ? this.outbound.refusal(target.scope, endpoint.host, endpoint.port) : null;
  }

  /**
   * Runs one check. Never throws. A scheduled monitor with several locations gets their verdict by its quorum rule
   * (LocationVerdicts), its server probe included when `server` is one of them.
   */
  async check(target: CheckTarget & Partial<Located>): Promise<CheckVerdict> {
    if (this.locations && !isServerOnly(target)) return this.locations.check(target as Located, () => this.checkHere(target));
    return this.checkHere(target);
  }

  private async checkHere(target: CheckTarget): Promise<CheckVerdict> {
    const checker = this.checkers[target.type] as Checker<MonitorType> | undefined;
    let probe: ProbeResult;
    try {
      if (!checker) throw new Error(`no checker for type ${String(target.type)}`);
      probe = await checker.check(target);
    } catch (error) {
      // A checker must not throw; one that does fails its check rather than the scheduler.
      this.logger.error({
        message: `Checker ${target.type} threw for monitor ${target.id}: ${(error as Error).message}`,
        monitorId: target.id,
      });
      probe = { ok: false, statusCode: null, responseTime: null, error: 'Check failed', checkedAt: new Date(), observed: {} };
    }
    return judge(target, withoutSecret(target, probe));
  }

  /**
   * The origin (host:port) a check of the target connects to, whose budget of checks in flight it waits for (see
   * BudgetGate); null when it connects nowhere of its own (push) or its checks are batched (ping, counted apart).
   */
  originOf(target: CheckTarget & Partial<Located>): string | null {
    if (target.locations && !target.locations.includes(SERVER_LOCATION)) return null;
    const checker = this.checkers[target.type] as Checker<MonitorType> | undefined;
    if (!checker || checker.batched) return null;
    const endpoint = checker.endpoint(target);
    return endpoint && endpoint.port > 0 ? `${endpoint.host.toLowerCase()}:${endpoint.port}` : null;
  }

  /**
   * The verdict of a check that waited its whole timeout for its origin's budget without starting: a timeout, as the
   * probe would have ended had it queued for the same origin's connections, dated when it began to wait.
   */
  waitedOut(target: CheckTarget, origin: string, waitingSince: Date, inFlight: number): CheckVerdict {
    const error = `Timeout after ${target.timeout} s waiting for ${origin} (${inFlight} checks to it in flight)`;
    return judge(target, { ok: false, statusCode: null, responseTime: null, error, checkedAt: waitingSince, observed: {} });
  }

  /** Whether checks of the type share batched work (see Checker.batched). */
  isBatched(type: MonitorType): boolean {
    return (this.checkers[type] as Checker | undefined)?.batched === true;
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.allSettled(Object.values(this.checkers).map((checker: Checker) => checker.close?.()));
  }
}
