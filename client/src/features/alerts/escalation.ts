import { ESCALATION_LIMITS, type EscalationStep, type NotificationSettingsRequest } from '@vigil/proto';

/** What reminders and escalation a settings entry holds (global or per target, monitors and agents alike). */
export interface FollowUp {
  reminderMinutes: number | null;
  escalation: EscalationStep[];
}

function wholeIn(value: unknown, min: number, max: number): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

/** Reminder minutes are off (null) or a whole number within the limits the server applies. */
export function reminderValid(minutes: number | null): boolean {
  return minutes === null || wholeIn(minutes, ESCALATION_LIMITS.reminderMinutesMin, ESCALATION_LIMITS.reminderMinutesMax);
}

export function afterMinutesValid(minutes: number): boolean {
  return wholeIn(minutes, ESCALATION_LIMITS.afterMinutesMin, ESCALATION_LIMITS.afterMinutesMax);
}

/** A step waits a whole number of minutes within the limits and names at least one channel. */
export function stepValid(step: EscalationStep): boolean {
  return afterMinutesValid(step.afterMinutes) && step.channels.length > 0;
}

/** Whether the entry can be saved: its reminder, at most `stepsMax` valid steps. */
export function followUpValid(settings: FollowUp): boolean {
  return (
    reminderValid(settings.reminderMinutes) &&
    settings.escalation.length <= ESCALATION_LIMITS.stepsMax &&
    settings.escalation.every(stepValid)
  );
}

/** A new step comes after the last one (30 minutes later, or after 30 minutes), with no channel chosen yet. */
export function nextStep(steps: readonly EscalationStep[]): EscalationStep {
  const last = steps.at(-1)?.afterMinutes ?? 0;
  return { afterMinutes: Math.min(ESCALATION_LIMITS.afterMinutesMax, (Number.isFinite(last) ? last : 0) + 30), channels: [] };
}

/** Steps as the server applies them: in the order they fire. */
export function orderedSteps(steps: readonly EscalationStep[]): EscalationStep[] {
  return [...steps].sort((a, b) => a.afterMinutes - b.afterMinutes);
}

/** The reminder and escalation fields of a settings call. */
export function followUpRequest(settings: FollowUp): Pick<NotificationSettingsRequest, 'reminder_minutes' | 'escalation'> {
  return { reminder_minutes: settings.reminderMinutes, escalation: orderedSteps(settings.escalation) };
}

/** A deleted channel leaves every escalation step too; a step left with no channel goes with it. */
export function withoutChannel(steps: readonly EscalationStep[], id: number): EscalationStep[] {
  return steps
    .map((step) => (step.channels.includes(id) ? { ...step, channels: step.channels.filter((channel) => channel !== id) } : step))
    .filter((step) => step.channels.length > 0);
}
