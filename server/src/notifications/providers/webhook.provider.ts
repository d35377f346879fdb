import { CHANNEL_RULES, isHttpUrl, type WebhookConfig, type WebhookPayload } from '@vigil/proto';
import { urlDestination } from '../../common/secret-values';
import { invalid, readConfig, readText } from './config';
import { postJson } from './http';
import type { ChannelProvider } from './provider';

const MAX_HEADERS = 30;
/** Visible ASCII, spaces, tabs and Latin-1: what an HTTP client can send (no CR/LF, so no header injection). */
const HEADER_VALUE = /^[\t\x20-\x7e\x80-\xff]{0,4096}$/;
/** Headers that describe the connection or the framing: ours to set, not the user's. */
const RESERVED = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'proxy-connection',
]);

/** A generic JSON webhook: POSTs a WebhookPayload with the user's extra headers; any 2xx is a delivery. */
export const webhookProvider: ChannelProvider<'webhook'> = {
  type: 'webhook',
  // Header values often carry an Authorization token.
  secretFields: ['headers'],
  credentialUrlFields: ['url'],
  // Receivers on shared services are told apart by path (and sometimes query), so all of it but the credentials.
  destination: (config) => (typeof config.url === 'string' ? urlDestination(config.url.trim()) : null),

  validate(config) {
    const fields = readConfig(config);
    if (!fields) return invalid('notifications.configInvalid');
    const url = readText(fields, 'url');
    if (!url) return invalid('notifications.webhookUrlRequired');
    if (!isHttpUrl(url)) return invalid('notifications.webhookUrlInvalid');
    const headers = readHeaders(fields.headers);
    if (headers === null) return invalid('notifications.headersInvalid');
    const valid: WebhookConfig = Object.keys(headers).length > 0 ? { url, headers } : { url };
    return { ok: true, config: valid };
  },

  send(message, config, context) {
    const payload: WebhookPayload = {
      event: message.event,
      severity: message.severity,
      subject: message.subject,
      text: message.text,
      target: message.target,
      sent_at: new Date(context.now()).toISOString(),
      ...(context.deliveryId ? { delivery_id: context.deliveryId } : {}),
    };
    return postJson(config.url, payload, context, { headers: config.headers });
  },
};

/**
 * Headers as an object of names to text values, or the same as a JSON string; absent or empty means none. Names and
 * values are trimmed, rows with a blank name are dropped (as in the monitor form). Null when they are not valid.
 */
function readHeaders(value: unknown): Record<string, string> | null {
  if (value === undefined || value === null) return {};
  let parsed = value;
  if (typeof parsed === 'string') {
    if (parsed.trim() === '') return {};
    try {
      parsed = JSON.parse(parsed);
    } catch {
      return null;
    }
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
  const headers: Record<string, string> = {};
  const seen = new Set<string>();
  for (const [rawName, rawValue] of Object.entries(parsed)) {
    const name = rawName.trim();
    if (name === '') continue;
    if (typeof rawValue !== 'string') return null;
    const headerValue = rawValue.trim();
    const lower = name.toLowerCase();
    if (!CHANNEL_RULES.headerName.test(name) || !HEADER_VALUE.test(headerValue) || RESERVED.has(lower) || seen.has(lower)) return null;
    seen.add(lower);
    headers[name] = headerValue;
  }
  return Object.keys(headers).length > MAX_HEADERS ? null : headers;
}
