/**
 * A probe judged against its monitor's assertions. Free of the framework on purpose: agents running assigned checks
 * bundle this file and the checkers, so a check means the same wherever it runs.
 */
import { SECRET_MASK, type AssertionOutcome } from '@vigil/proto';
import { evaluateAssertions, firstFailure } from './assertions';
import type { CheckTarget, DomainExpiry, PeerCertificate, ProbeResult } from './checker';

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
  /** A located monitor none of whose locations could judge it (recorded unreachable). */
  unreachable?: boolean;
}

/**
 * A database probe's error with the connection string and its password taken out: a driver quoting what it was given
 * must not put the secret in the history, pushes or notifications.
 */
export function withoutSecret(target: CheckTarget, probe: ProbeResult): ProbeResult {
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
  const { ok, statusCode, responseTime, error, checkedAt, certificate, domainExpiry, silentFor, soft, unreachable } = verdict;
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
    ...(unreachable ? { unreachable } : {}),
  };
}
