import { CHANNEL_RULES, isHttpUrl, type MessageCode } from '@vigil/proto';
import type { Validated } from './provider';

/** A channel config as stored or posted: an object, or the same object as a JSON string. Null when it is neither. */
export function readConfig(config: unknown): Record<string, unknown> | null {
  let value = config;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return null;
    }
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

/** A trimmed text field; a number becomes its decimal text (chat ids are often pasted as numbers). Anything else is empty. */
export function readText(config: Record<string, unknown>, key: string): string {
  const value = config[key];
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return '';
}

export function invalid(code: MessageCode): { ok: false; code: MessageCode } {
  return { ok: false, code };
}

/** The config of the chat robots that post to a webhook URL, optionally with a signing secret. */
export function validateRobot(config: unknown, withSecret: false): Validated<{ webhookUrl: string }>;
export function validateRobot(config: unknown, withSecret: true): Validated<{ webhookUrl: string; secret?: string }>;
export function validateRobot(config: unknown, withSecret: boolean): Validated<{ webhookUrl: string; secret?: string }> {
  const fields = readConfig(config);
  if (!fields) return invalid('notifications.configInvalid');
  const webhookUrl = readText(fields, 'webhookUrl');
  if (!webhookUrl) return invalid('notifications.webhookUrlRequired');
  if (!isHttpUrl(webhookUrl)) return invalid('notifications.webhookUrlInvalid');
  if (!withSecret) return { ok: true, config: { webhookUrl } };
  const secret = readText(fields, 'secret');
  if (!secret) return { ok: true, config: { webhookUrl } };
  if (!CHANNEL_RULES.signingSecret.test(secret)) return invalid('notifications.secretInvalid');
  return { ok: true, config: { webhookUrl, secret } };
}

/** A robot's webhook URL as a destination: the URL itself, normalised. */
export function robotDestination(config: Record<string, unknown>): string | null {
  const url = typeof config.webhookUrl === 'string' ? config.webhookUrl.trim() : '';
  if (!url) return null;
  try {
    return new URL(url).href;
  } catch {
    return url;
  }
}

/** Appends query parameters to a webhook URL without re-encoding the ones it already has. */
export function withQuery(url: string, params: Record<string, string>): string {
  const query = Object.entries(params)
    .map(([name, value]) => `${name}=${encodeURIComponent(value)}`)
    .join('&');
  const [base, fragment] = splitFragment(url);
  const separator = base.includes('?') ? (base.endsWith('?') || base.endsWith('&') ? '' : '&') : '?';
  return `${base}${separator}${query}${fragment}`;
}

function splitFragment(url: string): [string, string] {
  const hash = url.indexOf('#');
  return hash === -1 ? [url, ''] : [url.slice(0, hash), url.slice(hash)];
}
