/** Expected status 2–5 accepts the whole class (2 → any 2xx); anything else must match exactly. */
export function matchesExpectedStatus(expected: number, statusCode: number): boolean {
  if (expected >= 2 && expected <= 5) return Math.floor(statusCode / 100) === expected;
  return statusCode === expected;
}

/**
 * The first time on the monitor's own rhythm (anchor + k × interval) after `now`, so checks missed while the server
 * was down are not all fired at once on restart.
 */
export function nextOnRhythm(anchorMs: number, intervalMs: number, nowMs: number): number {
  if (anchorMs > nowMs) return anchorMs;
  const steps = Math.floor((nowMs - anchorMs) / intervalMs) + 1;
  return anchorMs + steps * intervalMs;
}

/** A stable offset within the interval for a monitor that has no rhythm yet, spreading start times. */
export function spreadOffsetMs(monitorId: number, intervalMs: number): number {
  // Knuth's multiplicative hash spreads consecutive ids across the interval.
  return ((monitorId * 2654435761) % 2 ** 32) % intervalMs;
}

/** Uptime percent for display: clamped to 0–100, two decimals; 100 when nothing was checked yet. */
export function uptimePercent(up: number, checks: number): number {
  if (checks <= 0) return 100;
  const percent = (up / checks) * 100;
  return Math.round(Math.min(100, Math.max(0, percent)) * 100) / 100;
}
