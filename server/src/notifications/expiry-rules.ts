import { createHash } from 'node:crypto';
import { MONITOR_TYPE_DEFAULTS, MONITOR_TYPE_LIMITS } from '@vigil/proto';

/** The mark of "expired" (`daysRemaining` below 0), below every expiry threshold (those are at least one day). */
export const EXPIRED = 0;

export { daysRemaining } from '../monitors/checkers/peer-certificate';

/**
 * Thresholds as the rule uses them: whole days within bounds, each once, largest first; unset: `fallback` (a
 * certificate's default). A domain's come from its settings as texts ('30'), read the same way.
 */
export function expiryThresholds(
  days: readonly (number | string)[] | undefined,
  fallback: readonly number[] = MONITOR_TYPE_DEFAULTS.certExpiryDays,
): number[] {
  const { certExpiryDaysMin: min, certExpiryDaysMax: max } = MONITOR_TYPE_LIMITS;
  const valid = (days ?? fallback).map(Number).filter((d) => Number.isInteger(d) && d >= min && d <= max);
  return [...new Set(valid)].sort((a, b) => b - a);
}

/**
 * A certificate's identity: its SHA-256 fingerprint as 64 lower-case hex digits (Node writes `AB:CD:…`). Anything
 * else is hashed, so the key stays bounded and stable for the same input.
 */
export function fingerprintKey(fingerprint: string): string {
  const hex = fingerprint.replace(/:/g, '').toLowerCase();
  return /^[0-9a-f]{64}$/.test(hex) ? hex : createHash('sha256').update(fingerprint).digest('hex');
}

/** A domain registration's identity: its name and expiry, so a renewal (a later expiry) starts its marks afresh. */
export function registrationKey(domain: string, expiresAt: Date): string {
  return fingerprintKey(`domain:${domain}:${expiresAt.toISOString()}`);
}

export interface ExpiryStep {
  /** The marks to record for this certificate or registration: every threshold crossed, and EXPIRED when announced. */
  marks: number[];
  /** The mark whose first recording is announced (the smallest crossed; EXPIRED: the expiry itself), or none. */
  announce: number | null;
}

/**
 * What one check's certificate or domain registration means for expiry alerts. Each threshold at or above the days
 * left is crossed; only the smallest crossed is announced and the larger ones are marked done with it, so a
 * certificate first seen at 6 days with thresholds [21, 14, 7] sends one alert (7). An expiry is announced only when
 * `tellsExpiry`: a certificate's when its check passed (it ignores TLS errors), since a failed check already sends
 * the down alert with the certificate error, and the expiry stays unmarked so that a later passing check still tells.
 */
export function expiryStep(days: number, thresholds: readonly number[], tellsExpiry: boolean): ExpiryStep {
  const crossed = thresholds.filter((threshold) => days <= threshold);
  if (days < 0) return tellsExpiry ? { marks: [...crossed, EXPIRED], announce: EXPIRED } : { marks: crossed, announce: null };
  return { marks: crossed, announce: crossed.length ? Math.min(...crossed) : null };
}
