import { channelSpec, isSecretField, SECRET_MASK, type ChannelFieldSpec, type ChannelType, type MessageCode } from '@vigil/proto';
import { hasMaskedPart, isMask, maskUrl, restoreHeaders, restoreUrl, urlDestination } from '../common/secret-values';
import { PROVIDERS, type ChannelProvider } from './providers';

type Config = Record<string, unknown>;

/** URL fields that are not secrets themselves may still carry credentials (`user:pass@`, `?token=`): those parts are masked. */
const carriesCredentials = (field: ChannelFieldSpec): boolean => field.kind === 'url' && !isSecretField(field);

/** A stored config as reads show it: every secret field (each value of a map field, e.g. headers) masked. */
export function maskSecrets(type: ChannelType, config: Config): Config {
  const masked: Config = { ...config };
  for (const field of channelSpec(type).fields) {
    const value = masked[field.name];
    if (value === undefined || value === null || value === '') continue;
    if (isSecretField(field)) {
      masked[field.name] = isObject(value) ? Object.fromEntries(Object.keys(value).map((key) => [key, SECRET_MASK])) : SECRET_MASK;
    } else if (carriesCredentials(field) && typeof value === 'string') {
      masked[field.name] = maskUrl(value);
    }
  }
  return masked;
}

export type Restored = { ok: true; config: Config } | { ok: false; field: string; code: MessageCode };

/**
 * Where a config's secrets go: the provider's rule, else the addresses in its URL fields; empty for a type whose
 * secrets only go to its fixed `<TYPE>_API_URL`. Null when a URL field the type has is missing or unreadable.
 */
export function destinationOf(type: ChannelType, config: Config): string | null {
  const destination = (PROVIDERS[type] as ChannelProvider).destination;
  if (destination) return destination(config);
  const urls = channelSpec(type).fields.filter((field) => field.kind === 'url');
  if (urls.length === 0) return '';
  const parts = urls.map((field) => {
    const value = config[field.name];
    if (typeof value !== 'string') return null;
    // A URL that is itself the secret names one robot: all of it. Otherwise all but its credentials.
    return isSecretField(field) ? normalisedUrl(value.trim()) : urlDestination(value.trim());
  });
  return parts.some((part) => part === null) ? null : parts.join(' ');
}

function normalisedUrl(url: string): string | null {
  try {
    return new URL(url).href;
  } catch {
    return null;
  }
}

/**
 * An edited config with each secret sent back as the mask replaced by the stored value, so saving a form that was
 * read masked keeps the secrets. A stored secret is only ever sent where it was saved for: the same channel type and
 * the same destination (`destinationOf`). Otherwise every masked secret must be typed again, and the answer names
 * the first one. This one rule serves saving and testing alike.
 */
export function restoreSecrets(type: ChannelType, incoming: Config, stored: { type: ChannelType; config: Config } | null): Restored {
  const fields = channelSpec(type).fields;
  const previous = stored && stored.type === type ? stored.config : null;
  const restored: Config = { ...incoming };
  const masked: ChannelFieldSpec[] = [];
  const refuse = (field: ChannelFieldSpec): Restored => ({
    ok: false,
    field: field.name,
    code: field.codes?.reenter ?? 'notifications.fieldReenter',
  });

  for (const field of fields.filter(carriesCredentials)) {
    const value = restored[field.name];
    if (typeof value !== 'string' || !hasMaskedPart(value)) continue;
    const stored = previous?.[field.name];
    const url = restoreUrl(value.trim(), typeof stored === 'string' ? stored : null);
    if (url === null) return refuse(field);
    restored[field.name] = url;
  }
  for (const field of fields.filter(isSecretField)) {
    const value = jsonObject(restored[field.name]);
    if (typeof value === 'string' && isMask(value.trim())) {
      if (previous?.[field.name] === undefined) return refuse(field);
      restored[field.name] = previous[field.name];
      masked.push(field);
    } else if (isObject(value) && Object.values(value).some((item) => typeof item === 'string' && isMask(item.trim()))) {
      // Whether the destination holds is judged below, once every field is in place.
      const saved = previous?.[field.name];
      const headers = restoreHeaders(value, isObject(saved) ? saved : {}, true);
      if (!headers.ok) return refuse(field);
      restored[field.name] = headers.headers;
      masked.push(field);
    }
  }
  if (masked.length > 0 && previous) {
    const destination = destinationOf(type, restored);
    if (destination === null || destination !== destinationOf(type, previous)) return refuse(masked[0]);
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
