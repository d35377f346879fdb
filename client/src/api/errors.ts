import type { TFunction } from 'i18next';
import { MESSAGE_VALUES } from '@vigil/proto';
import { ApiError } from './http';

/**
 * The text to show for a failed call, in the user's language: the translation of the server's code, else the
 * server's own message, else the screen's generic text (spec section 8: "the server message is shown when present,
 * otherwise the generic key").
 */
export function errorText(t: TFunction, error: unknown, fallback: string): string {
  if (error instanceof ApiError) {
    if (error.kind === 'timeout') return t('common.error.timeout');
    if (error.kind === 'network') return t('common.error.network');
    if (error.code) return t(`server.${error.code}`, { replace: MESSAGE_VALUES[error.code] });
    if (error.message) return error.message;
  }
  return fallback;
}

/**
 * A failure text followed by its reason, e.g. "Failed to update monitor: URL is required" (spec section 2): the
 * reason is the server's message in the user's language when there is one, else the unknown-error text.
 */
export function failureWithReason(t: TFunction, failure: string, error: unknown): string {
  return t('common.error.withReason', { failure, reason: errorText(t, error, t('common.error.unknown')) });
}
