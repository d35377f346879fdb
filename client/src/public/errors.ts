import { PageError } from './api';
import type { Translate } from './i18n';

/**
 * The text for a failed call in the page's language: transport failures and rate limits in its own words, else the
 * server's message (the public page carries no catalogue of server codes), else the screen's fallback.
 */
export function errorText(t: Translate, error: unknown, fallback: string): string {
  if (!(error instanceof PageError)) return fallback;
  if (error.kind === 'timeout') return t('error.timeout');
  if (error.kind === 'network') return t('error.network');
  if (error.status === 429) return t('error.tooMany');
  return error.message || fallback;
}
