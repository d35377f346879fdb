import { ADDED_MONITOR_TYPES, MESSAGES, settingsFields, typeSpec } from '@vigil/proto';
import type { TFunction } from 'i18next';
import { errorText, failureWithReason } from '../../api/errors';
import { ApiError } from '../../api/http';
import type { MonitorFormField } from './form';

/** A failed save: a text above the fields, or one beside the field the server named (a dependency cycle). */
export type SubmitFailure = string | { field: MonitorFormField; text: string };

/**
 * Fields the server may name in a 400 whose text belongs beside the field rather than above the form: dependencies
 * (a cycle), locations (an unknown agent) and the quorum, and an added type's settings (a secret to type again for a
 * new destination, a value its spec refuses).
 */
const SERVER_FIELDS: Record<string, MonitorFormField> = {
  dependsOn: 'dependsOn',
  depends_on: 'dependsOn',
  locations: 'locations',
  quorumMin: 'quorumMin',
  ...Object.fromEntries(
    ADDED_MONITOR_TYPES.flatMap((type) => settingsFields(typeSpec(type)).map((field) => [field.name, `setting-${field.name}`])),
  ),
};

/** The save's failure as the form shows it: beside the named field, else "Failed to …: reason" above the fields. */
export function saveFailure(t: TFunction, failure: string, error: unknown): SubmitFailure {
  const field = error instanceof ApiError && error.field ? SERVER_FIELDS[error.field] : undefined;
  if (!field) return failureWithReason(t, failure, error);
  return { field, text: errorText(t, error, failure) + detailOf(error as ApiError) };
}

/** What the server added after its message's fixed text, e.g. the cycle ": core → edge → core", kept after the translation. */
function detailOf(error: ApiError): string {
  const fixed = error.code ? MESSAGES[error.code] : undefined;
  return fixed && error.message.startsWith(fixed) ? error.message.slice(fixed.length) : '';
}
