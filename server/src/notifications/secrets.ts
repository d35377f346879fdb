import { SECRET_MASK, type ChannelType, type MessageCode } from '@vigil/proto';
import { hasMaskedPart, isMask, maskUrl, restoreHeaders, restoreUrl } from '../common/secret-values';
import { providerFor } from './providers';

type Config = Record<string, unknown>;

/** The message asking to type a secret again, by config field. */
const REENTER: Record<string, MessageCode> = {
  botToken: 'notifications.botTokenReenter',
  apiKey: 'notifications.apiKeyReenter',
  headers: 'notifications.headersReenter',
  url: 'notifications.urlCredentialsReenter',
  webhookUrl: 'notifications.webhookUrlReenter',
  secret: 'notifications.secretReenter',
};

/** A stored config as reads show it: every secret field (each value of an object field, e.g. headers) masked. */
export function maskSecrets(type: ChannelType, config: Config): Config {
  const provider = providerFor(type);
  const masked: Config = { ...config };
  for (const field of provider.secretFields as readonly string[]) {
    const value = masked[field];
    if (value === undefined || value === null || value === '') continue;
    masked[field] = isObject(value) ? Object.fromEntries(Object.keys(value).map((key) => [key, SECRET_MASK])) : SECRET_MASK;
  }
  for (const field of (provider.credentialUrlFields ?? []) as readonly string[]) {
    if (typeof masked[field] === 'string') masked[field] = maskUrl(masked[field]);
  }
  return masked;
}

export type Restored = { ok: true; config: Config } | { ok: false; code: MessageCode };

/**
 * An edited config with each secret sent back as the mask replaced by the stored value, so saving a form that was
 * read masked keeps the secrets. A stored secret is only ever sent where it was saved for: the same channel type and
 * the same destination (the provider's `destination`). Otherwise every masked secret must be typed again, and the
 * answer names the first one. This one rule serves saving and testing alike.
 */
export function restoreSecrets(type: ChannelType, incoming: Config, stored: { type: ChannelType; config: Config } | null): Restored {
  const provider = providerFor(type);
  const previous = stored && stored.type === type ? stored.config : null;
  const restored: Config = { ...incoming };
  const masked: string[] = [];
  const refuse = (field: string): Restored => ({ ok: false, code: REENTER[field] ?? 'notifications.configInvalid' });

  for (const field of (provider.credentialUrlFields ?? []) as readonly string[]) {
    const value = restored[field];
    if (typeof value !== 'string' || !hasMaskedPart(value)) continue;
    const url = restoreUrl(value.trim(), typeof previous?.[field] === 'string' ? previous[field] : null);
    if (url === null) return refuse(field);
    restored[field] = url;
  }
  for (const field of provider.secretFields as readonly string[]) {
    const value = jsonObject(restored[field]);
    if (typeof value === 'string' && isMask(value.trim())) {
      if (previous?.[field] === undefined) return refuse(field);
      restored[field] = previous[field];
      masked.push(field);
    } else if (isObject(value) && Object.values(value).some((item) => typeof item === 'string' && isMask(item.trim()))) {
      // Whether the destination holds is judged below, once every field is in place.
      const headers = restoreHeaders(value, isObject(previous?.[field]) ? previous[field] : {}, true);
      if (!headers.ok) return refuse(field);
      restored[field] = headers.headers;
      masked.push(field);
    }
  }
  if (masked.length > 0 && provider.destination && previous) {
    const destination = provider.destination(restored);
    if (destination === null || destination !== provider.destination(previous)) return refuse(masked[0]);
  }
  return { ok: true, config: restored };
}

/** Headers may arrive as an object or as that object in JSON. */
function jsonObject(value: unknown): unknown {
  if (typeof value !== 'string' || !value.trim().startsWith('{')) return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
