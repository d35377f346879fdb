import { HttpStatus } from '@nestjs/common';
import {
  isAddedType,
  isSecretField,
  SECRET_MASK,
  settingsFields,
  typeSpec,
  validateFields,
  type MessageCode,
  type MonitorType,
  type MonitorTypeSpec,
} from '@vigil/proto';
import { ApiException } from '../common/api-exception';
import type { MonitorRow } from './monitor.types';

/** Where a monitor's checks connect: a saved secret only ever goes back to the destination it was saved with. */
export type Destination = Pick<MonitorRow, 'type' | 'hostname' | 'port' | 'url'>;

const refusal = (code: MessageCode, field: string | null) =>
  new ApiException(HttpStatus.BAD_REQUEST, code, undefined, undefined, field ?? undefined);

/**
 * An added type's settings from a create or update body, where they come flat (`mqttTopic` beside `name`): checked by
 * the type's spec (defaults filled, text trimmed, numbers and flags read), unknown keys dropped. An edit of the same
 * type lays the fields sent over the stored ones; a secret sent back as the mask keeps the stored secret, but only
 * for the same destination (type, host, port, URL): otherwise it must be typed again (400 naming the field).
 * The first types have none (`{}`).
 */
export function settingsFrom(
  type: MonitorType,
  input: object,
  current: Pick<MonitorRow, 'type' | 'settings'> | null,
  sameDestination: boolean,
): Record<string, unknown> {
  if (!isAddedType(type)) return {};
  const stored = current && current.type === type ? (current.settings ?? {}) : {};
  return checkedSettings(typeSpec(type), input as Record<string, unknown>, stored, sameDestination);
}

/** `settingsFrom` for one spec: the body's fields over the stored ones, checked, masked secrets put back. */
export function checkedSettings(
  spec: MonitorTypeSpec,
  body: Record<string, unknown>,
  stored: Record<string, unknown>,
  sameDestination: boolean,
): Record<string, unknown> {
  const merged: Record<string, unknown> = {};
  for (const field of settingsFields(spec)) {
    // A stored secret not sent again counts as sent back masked: it follows only the same destination.
    const kept = isSecretField(field) && stored[field.name] ? SECRET_MASK : stored[field.name];
    const value = body[field.name] !== undefined ? body[field.name] : kept;
    if (value !== undefined) merged[field.name] = value;
  }
  const checked = validateFields({ fields: settingsFields(spec), check: spec.check }, merged, { masked: true });
  if (!checked.ok) throw refusal(checked.code, checked.field);
  for (const field of settingsFields(spec).filter(isSecretField)) {
    const value = checked.config[field.name];
    if (typeof value !== 'string' || !value.includes(SECRET_MASK)) continue;
    const kept = stored[field.name];
    if (!sameDestination || typeof kept !== 'string') throw refusal('notifications.fieldReenter', field.name);
    checked.config[field.name] = kept;
  }
  return checked.config;
}

/** Whether an edit leaves a monitor pointed where it was: same type, host, port and URL. */
export function keepsDestination(current: Destination, next: Partial<Destination>): boolean {
  return (
    (next.type ?? current.type) === current.type &&
    (next.hostname === undefined || next.hostname === current.hostname) &&
    (next.port === undefined || next.port === current.port) &&
    (next.url === undefined || next.url === current.url)
  );
}
