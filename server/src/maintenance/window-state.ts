import type { MaintenancePhase } from '@vigil/proto';
import { nextOccurrence, occurrenceAt, spanEnd, type Occurrence, type Schedule } from './schedule';

/**
 * What the sweep decides for one window at one instant, pure. The database holds the span applied now
 * (`appliedStart`…`appliedEnd`, null: none); the clock and the schedule say which span should be. A window is on
 * while its schedule covers now (a manual one while switched on), except within a span ended early (`skipUntil`).
 * Occurrences that overlap or touch the applied span continue it: a run every hour lasting two is one span, started
 * and ended once.
 */

export interface WindowState {
  schedule: Schedule;
  enabled: boolean;
  appliedStart: number | null;
  appliedEnd: number | null;
  skipUntil: number | null;
}

export type SweepStep =
  | { kind: 'none' }
  /** A span starts: monitors move into maintenance, notices go. */
  | { kind: 'start'; span: Occurrence }
  /** The applied span is over (its time passed, the window was switched off or changed). */
  | { kind: 'end' }
  /** The applied span goes on, with this end (a later occurrence joined it, or an edit moved it). */
  | { kind: 'extend'; end: number | null }
  /** The applied span is over and another, apart from it, covers now (the sweep missed the gap between). */
  | { kind: 'restart'; span: Occurrence };

const NONE: SweepStep = { kind: 'none' };

/** The span that should be applied at `now`: the occurrence covering it, to the end of what continues it. */
export function spanAt(window: WindowState, now: number): Occurrence | null {
  if (!window.enabled) return null;
  if (window.schedule.strategy === 'manual') return { start: window.appliedStart ?? now, end: null };
  const covering = occurrenceAt(window.schedule, now, window.skipUntil);
  return covering && { start: covering.start, end: spanEnd(window.schedule, covering) };
}

/** What the sweep does to the window at `now`. */
export function sweepStep(window: WindowState, now: number): SweepStep {
  const span = spanAt(window, now);
  if (window.appliedStart === null) return span ? { kind: 'start', span } : NONE;
  if (!span) return { kind: 'end' };
  if (window.appliedEnd !== null && span.start > window.appliedEnd) return { kind: 'restart', span };
  return span.end === window.appliedEnd ? NONE : { kind: 'extend', end: span.end };
}

/** The next span after `now` (the one a scheduled window shows), or null: a manual window has none. */
export function nextSpan(window: WindowState, now: number): Occurrence | null {
  if (!window.enabled || window.schedule.strategy === 'manual') return null;
  const next = nextOccurrence(window.schedule, now, window.skipUntil);
  return next && { start: next.start, end: spanEnd(window.schedule, next) };
}

/** Where a window stands, from the database's state: switched off, applied now, with a span ahead, or none left. */
export function phaseOf(window: { enabled: boolean; appliedStart: unknown; nextStart: unknown }): MaintenancePhase {
  if (!window.enabled) return 'paused';
  if (window.appliedStart !== null) return 'active';
  return window.nextStart !== null ? 'scheduled' : 'ended';
}
