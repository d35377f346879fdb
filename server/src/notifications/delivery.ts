import { DeliveryError, isRetryable } from './providers';
import type { Outcome } from './outbox.repository';

/** Exponential backoff: base, 2×base, 4×base… with ±10 % jitter so retries from many alerts do not line up. */
export function retryDelayMs(attempt: number, baseMs: number, random: () => number = Math.random): number {
  const exact = baseMs * 2 ** Math.max(0, attempt - 1);
  return Math.round(exact * (0.9 + random() * 0.2));
}

/**
 * What follows a failed attempt: another one later while the error may pass and attempts remain (never sooner than
 * the provider asked), else failed for good.
 */
export function afterFailure(error: unknown, attempt: number, maxAttempts: number, baseMs: number, random?: () => number): Outcome {
  if (!isRetryable(error) || attempt >= maxAttempts) return { status: 'failed' };
  const asked = error instanceof DeliveryError ? (error.retryAfterMs ?? 0) : 0;
  return { status: 'retry', delayMs: Math.max(retryDelayMs(attempt, baseMs, random), asked) };
}

/** The error's text for the history: provider errors are already free of secrets; anything else is named only. */
export function describeFailure(error: unknown): { httpStatus: number | null; detail: string } {
  if (error instanceof DeliveryError) return { httpStatus: error.status, detail: error.message };
  return { httpStatus: null, detail: error instanceof Error ? `Unexpected error: ${error.name}` : 'Unexpected error' };
}
