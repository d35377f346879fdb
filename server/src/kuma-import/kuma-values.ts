/** Reading Kuma's stored values: 0/1 booleans, JSON in text columns, numbers that may be text. */
import type { KumaImportSkipped, KumaSkipReasonCode } from '@vigil/proto';
import type { KumaRow } from './kuma-file';

/** Why an item was not imported, and what an item is (proto/src/kuma-import.ts: the report carries them). */
export type KumaSkipReason = KumaSkipReasonCode;
export type KumaSkipped = KumaImportSkipped;

export const text = (value: unknown): string | undefined =>
  value === null || value === undefined || String(value).trim() === '' ? undefined : String(value);
export const int = (value: unknown): number | undefined => {
  const number = Number(value);
  return value === null || value === undefined || value === '' || !Number.isFinite(number) ? undefined : Math.round(number);
};
export const bool = (value: unknown): boolean => value === true || value === 1 || value === '1' || value === 'true';
export const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));

export function json<T>(value: unknown, fallback: T): T {
  if (typeof value !== 'string') return (value as T) ?? fallback;
  try {
    return JSON.parse(value) as T;
  } catch {
    return fallback;
  }
}

/** A stable key per Kuma row, so an import run again matches what the first run created. */
export const kumaKey = (kind: 'monitor' | 'channel' | 'maintenance', row: KumaRow, suffix = '') =>
  `kuma-${kind === 'monitor' ? '' : `${kind}-`}${String(row.id)}${suffix}`;

/** Splits `host:port` (a bracketed IPv6 address allowed). */
export function hostAndPort(value: string): { hostname: string; port?: number } {
  const match = /^\[?([^\]]+?)\]?(?::(\d+))?$/.exec(value.replace(/^[a-z]+:\/\//i, '').replace(/\/.*$/, ''));
  if (!match) return { hostname: value };
  return { hostname: match[1], port: match[2] ? Number(match[2]) : undefined };
}
