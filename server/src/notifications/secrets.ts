import { SECRET_MASK, type ChannelType } from '@vigil/proto';
import { providerFor } from './providers';

type Config = Record<string, unknown>;

/** A stored config as reads show it: every secret field (each value of an object field, e.g. headers) masked. */
export function maskSecrets(type: ChannelType, config: Config): Config {
  const masked: Config = { ...config };
  for (const field of providerFor(type).secretFields as readonly string[]) {
    const value = masked[field];
    if (value === undefined || value === null || value === '') continue;
    masked[field] = isObject(value) ? Object.fromEntries(Object.keys(value).map((key) => [key, SECRET_MASK])) : SECRET_MASK;
  }
  return masked;
}

/**
 * An edited config with each secret sent back as the mask replaced by the stored value, so saving a form that was
 * read masked keeps the secrets. Only for the same channel type: a new type starts from nothing.
 */
export function restoreSecrets(type: ChannelType, incoming: Config, stored: Config): Config {
  const restored: Config = { ...incoming };
  for (const field of providerFor(type).secretFields as readonly string[]) {
    const value = restored[field];
    if (value === SECRET_MASK) {
      restored[field] = stored[field];
    } else if (isObject(value)) {
      const previous = isObject(stored[field]) ? stored[field] : {};
      restored[field] = Object.fromEntries(
        Object.entries(value).map(([key, item]) => [key, item === SECRET_MASK ? previous[key] : item]),
      );
    }
  }
  return restored;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
