/**
 * KB/s between two readings of a cumulative byte counter. A counter that went down was reset (reboot, driver
 * reload, 32-bit wrap): that interval has no trustworthy rate, so it reports 0 rather than a negative figure.
 */
export function rateKBs(previous: number | undefined, current: number, elapsedMs: number): number {
  if (previous === undefined || elapsedMs <= 0 || current < previous) return 0;
  return Math.round(((current - previous) / 1024 / (elapsedMs / 1000)) * 100) / 100;
}

export interface CounterReading {
  at: number;
  counters: Map<string, { rx: number; tx: number }>;
}

/** Per-interface rates since the previous reading. */
export function ratesSince(previous: CounterReading | null, current: CounterReading): Map<string, { rx: number; tx: number }> {
  const elapsed = previous ? current.at - previous.at : 0;
  const rates = new Map<string, { rx: number; tx: number }>();
  for (const [name, now] of current.counters) {
    const before = previous?.counters.get(name);
    rates.set(name, { rx: rateKBs(before?.rx, now.rx, elapsed), tx: rateKBs(before?.tx, now.tx, elapsed) });
  }
  return rates;
}
