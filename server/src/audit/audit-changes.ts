import type { AuditChange, AuditChanges } from '@vigil/proto';

/** A masker's answer for a field whose values are never recorded, only that it changed. */
export const SECRET = Symbol('secret');

/** How a field's value is recorded: itself, masked (a URL without its credentials), or SECRET. */
export type Masker = (field: string, value: unknown) => unknown;

export type Snapshot = Record<string, unknown>;

const asIs: Masker = (_field, value) => value;

/**
 * The changed fields between two snapshots of one thing, as the audit log keeps them: `{ field: { before, after } }`,
 * compared on the real values and recorded as `mask` shows them. A change that only the mask hides (a new password in
 * a URL) or a secret field is recorded as `{ secret: true }`. A creation (`before` null) lists the fields that hold a
 * value, a deletion (`after` null) likewise; null when nothing changed.
 */
export function changesOf(before: Snapshot | null, after: Snapshot | null, mask: Masker = asIs): AuditChanges | null {
  const changes: AuditChanges = {};
  const fields = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  for (const field of fields) {
    const old = before?.[field];
    const now = after?.[field];
    if (sameValue(old, now)) continue;
    if (!before && isEmpty(now)) continue;
    if (!after && isEmpty(old)) continue;
    const change = recorded(field, old, now, mask, before !== null, after !== null);
    if (change) changes[field] = change;
  }
  return Object.keys(changes).length ? changes : null;
}

function recorded(field: string, old: unknown, now: unknown, mask: Masker, hadBefore: boolean, hasAfter: boolean): AuditChange {
  const maskedOld = hadBefore && !isEmpty(old) ? mask(field, old) : old;
  const maskedNow = hasAfter && !isEmpty(now) ? mask(field, now) : now;
  if (maskedOld === SECRET || maskedNow === SECRET) return { secret: true };
  // Only the masked part changed (a password in a URL, a credential header's value): say so, show nothing.
  if (hadBefore && hasAfter && sameValue(maskedOld, maskedNow)) return { secret: true };
  const change: AuditChange = {};
  if (hadBefore) change.before = maskedOld ?? null;
  if (hasAfter) change.after = maskedNow ?? null;
  return change;
}

function isEmpty(value: unknown): boolean {
  return (
    value === null ||
    value === undefined ||
    value === '' ||
    (Array.isArray(value) && value.length === 0) ||
    (typeof value === 'object' && !Array.isArray(value) && Object.keys(value as object).length === 0)
  );
}

/** Deep equality of JSON-like values, object key order ignored (jsonb does not keep it). */
export function sameValue(a: unknown, b: unknown): boolean {
  return stable(a) === stable(b);
}

function stable(value: unknown): string {
  if (value instanceof Date) return JSON.stringify(value.toISOString());
  if (Array.isArray(value)) return `[${value.map(stable).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stable(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}
