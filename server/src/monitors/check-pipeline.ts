import { Inject, Injectable, Logger, OnModuleDestroy } from '@nestjs/common';
import { SECRET_MASK, type AssertionOutcome, type MonitorType } from '@vigil/proto';
import type { OutboundDeniedError } from '../common/outbound';
import { OutboundPolicy } from '../common/outbound-policy';
import type { AppConfig } from '../config/config';
import { APP_CONFIG } from '../config/config.module';
import { evaluateAssertions, firstFailure } from './checkers/assertions';
import {
  createCheckers,
  type Checker,
  type CheckerRegistry,
  type CheckTarget,
  type DomainExpiry,
  type PeerCertificate,
  type ProbeResult,
} from './checkers';

/** One check's result as stored (ResultInput's check fields) plus each assertion's outcome. */
export interface CheckVerdict {
  ok: boolean;
  statusCode: number | null;
  responseTime: number | null;
  /** The probe's error when it failed, else the first failing assertion's, else null. */
  error: string | null;
  checkedAt: Date;
  certificate: PeerCertificate | null;
  domainExpiry: DomainExpiry | null;
  assertions: AssertionOutcome[];
  /** Push verdicts only (see ProbeResult.silentFor). */
  silentFor?: number;
  /** A success on which a soft assertion failed (recorded degraded; `error` names it). */
  soft?: boolean;
}

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
  ) {
    this.checkers = createCheckers({ config, outbound });
  }

  /**
   * Why the target may not be saved or tested (a refused address or one of Vigil's own services), or null. Judged on
   * what its host resolves to now; every check judges again at connect time.
   */
  async refusal(target: CheckTarget): Promise<OutboundDeniedError | null> {
    const endpoint = (this.checkers[target.type] as Checker<MonitorType>).endpoint(target);
    return endpoint ? this.outbound.refusal(target.scope, endpoint.host, endpoint.port) : null;
  }

  /** Runs one check. Never throws. */
  async check(target: CheckTarget): Promise<CheckVerdict> {
    const checker = this.checkers[target.type] as Checker<MonitorType> | undefined;
    let probe: ProbeResult;
    try {
      if (!checker) throw new Error(`no checker for type ${String(target.type)}`);
      probe = await checker.check(target);
    } catch (error) {
      // A checker must not throw; one that does fails its check rather than the scheduler.
      this.logger.error(`Checker ${target.type} threw for monitor ${target.id}: ${(error as Error).message}`);
      probe = { ok: false, statusCode: null, responseTime: null, error: 'Check failed', checkedAt: new Date(), observed: {} };
    }
    return judge(target, withoutSecret(target, probe));
  }

  /**
   * The origin (host:port) a check of the target connects to, whose budget of checks in flight it waits for (see
   * BudgetGate); null when it connects nowhere of its own (push) or its checks are batched (ping, counted apart).
   */
  originOf(target: CheckTarget): string | null {
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

/**
 * A database probe's error with the connection string and its password taken out: a driver quoting what it was given
 * must not put the secret in the history, pushes or notifications.
 */
function withoutSecret(target: CheckTarget, probe: ProbeResult): ProbeResult {
  if (!('connectionString' in target) || !probe.error || !target.connectionString) return probe;
  let password = '';
  try {
    password = decodeURIComponent(new URL(target.connectionString).password);
  } catch {
    // Not a URL: only the whole string is taken out.
  }
  const secrets = [target.connectionString, password].filter((secret) => secret.length >= 3);
  const error = secrets.reduce((text, secret) => text.split(secret).join(SECRET_MASK), probe.error);
  return error === probe.error ? probe : { ...probe, error };
}

/**
 * A probe with the monitor's assertions applied: ok only when the probe and every assertion held; the probe's own
 * error wins over an assertion's. `expectedStatus` stays the HTTP checker's own status rule; assertions add to it.
 */
export function judge(target: Pick<CheckTarget, 'assertions'>, probe: ProbeResult): CheckVerdict {
  const assertions = evaluateAssertions(target.assertions ?? [], probe);
  const failed = firstFailure(assertions.filter((outcome) => !outcome.assertion.soft));
  const softFailed = firstFailure(assertions.filter((outcome) => outcome.assertion.soft));
  const ok = probe.ok && failed === null;
  return {
    ok,
    statusCode: probe.statusCode,
    responseTime: probe.responseTime,
    error: probe.ok ? (failed ?? softFailed) : (probe.error ?? failed ?? 'Check failed'),
    ...(ok && softFailed !== null ? { soft: true } : {}),
    checkedAt: probe.checkedAt,
    certificate: probe.observed.certificate ?? null,
    domainExpiry: probe.observed.domainExpiry ?? null,
    assertions,
    ...(probe.silentFor === undefined ? {} : { silentFor: probe.silentFor }),
  };
}

/** The fields of a verdict the writer stores (ResultInput's check part). */
export function storedFields(verdict: CheckVerdict) {
  const { ok, statusCode, responseTime, error, checkedAt, certificate, domainExpiry, silentFor, soft } = verdict;
  return {
    ok,
    statusCode,
    responseTime,
    error,
    checkedAt,
    certificate,
    domainExpiry,
    ...(silentFor === undefined ? {} : { silentFor }),
    ...(soft ? { soft } : {}),
  };
}
