import type { EscalationStep } from '@vigil/proto';

/** An open, unacknowledged alert as the sweep weighs it. */
export interface AlertTiming {
  openedAt: Date;
  remindersSent: number;
  escalationStep: number;
}

export interface AlertPolicy {
  reminderMinutes: number | null;
  /** Sorted by afterMinutes. */
  escalation: EscalationStep[];
}

export interface DueWork {
  /** Send one reminder now (never a burst for reminders missed while the sweep was not running). */
  remind: boolean;
  remindersSent: number;
  /** Steps newly due, in order, with their 1-based number. */
  steps: Array<EscalationStep & { number: number }>;
  escalationStep: number;
  /** When something is next due; null: nothing more is (settings may still change). */
  nextAt: Date | null;
}

/**
 * What an alert is due now, `minuteMs` being the length of a minute (shortened in tests): a reminder every
 * `reminderMinutes` after opening, and each escalation step once `afterMinutes` have passed since opening.
 */
export function dueWork(alert: AlertTiming, policy: AlertPolicy, now: Date, minuteMs: number): DueWork {
  const elapsed = now.getTime() - alert.openedAt.getTime();
  const opened = alert.openedAt.getTime();
  let remindersSent = alert.remindersSent;
  let remind = false;
  let nextReminder: number | null = null;
  if (policy.reminderMinutes) {
    const every = policy.reminderMinutes * minuteMs;
    const periods = Math.floor(elapsed / every);
    if (periods > remindersSent) {
      remind = true;
      remindersSent = periods;
    }
    nextReminder = opened + (remindersSent + 1) * every;
  }
  const steps = policy.escalation
    .map((step, index) => ({ ...step, number: index + 1 }))
    .slice(alert.escalationStep)
    .filter((step) => elapsed >= step.afterMinutes * minuteMs);
  const escalationStep = alert.escalationStep + steps.length;
  const upcoming = policy.escalation[escalationStep];
  const nextEscalation = upcoming ? opened + upcoming.afterMinutes * minuteMs : null;
  const next = [nextReminder, nextEscalation].filter((at): at is number => at !== null);
  return { remind, remindersSent, steps, escalationStep, nextAt: next.length ? new Date(Math.min(...next)) : null };
}

/** How many alert minutes the sweep waits before looking again at an alert that has nothing due. */
export const IDLE_MINUTES = 60;

/** The policy of a target's settings (null: nothing applies). */
export function policyOf(settings: { reminder_minutes: number | null; escalation?: EscalationStep[] | null } | null): AlertPolicy | null {
  return settings ? { reminderMinutes: settings.reminder_minutes, escalation: settings.escalation ?? [] } : null;
}

/**
 * When the sweep first looks at an episode opened at `at`: its first reminder or escalation step, else after
 * IDLE_MINUTES. Stored with the opening, so an episode with nothing due is not written again a sweep later.
 */
export function firstDue(policy: AlertPolicy | null, at: Date, minuteMs: number): Date {
  const idle = new Date(at.getTime() + IDLE_MINUTES * minuteMs);
  if (!policy) return idle;
  return dueWork({ openedAt: at, remindersSent: 0, escalationStep: 0 }, policy, at, minuteMs).nextAt ?? idle;
}
