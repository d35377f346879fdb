import {
  CHANNEL_GROUPING,
  channelSpec,
  CHANNEL_TYPES,
  fieldProblems,
  isChannelType,
  type ChannelFieldSpec,
  type ChannelLanguage,
  type ChannelRequest,
  type ChannelSpec,
  type ChannelType,
  type NotificationChannelDto,
} from '@vigil/proto';
import { ApiError } from '../../api/http';

export interface HeaderRow {
  name: string;
  value: string;
}

export interface ChannelForm {
  name: string;
  type: ChannelType;
  enabled: boolean;
  language: ChannelLanguage;
  /** The type's fields as the inputs hold them: text (numbers and lists too, lists comma-separated), flags as 'true'/'false'. */
  fields: Record<string, string>;
  /** The rows of the type's `map` field (the webhook's headers), edited one by one. */
  headers: HeaderRow[];
  /** Storm grouping (NaN while the input holds no number, which validation refuses). */
  groupWaitSeconds: number;
  groupIntervalSeconds: number;
}

/** Field name → translation key of what is wrong with it. */
export type ChannelErrors = Partial<Record<string, string>>;

export const CHANNEL_NAME_MAX = 100;

/** The fields the dialog shows as inputs, in the spec's order (a `map` field is edited as rows). */
export function inputFields(type: ChannelType): readonly ChannelFieldSpec[] {
  return channelSpec(type).fields.filter((field) => field.kind !== 'map');
}

/** The type's `map` field (the webhook's headers), if it has one. */
export function mapField(type: ChannelType): ChannelFieldSpec | undefined {
  return channelSpec(type).fields.find((field) => field.kind === 'map');
}

/** The types grouped as the type picker lists them. */
export function typesByFamily(): Array<{ family: ChannelSpec['family']; types: ChannelType[] }> {
  const groups = new Map<ChannelSpec['family'], ChannelType[]>();
  for (const type of CHANNEL_TYPES) {
    const family = channelSpec(type).family;
    groups.set(family, [...(groups.get(family) ?? []), type]);
  }
  return [...groups].map(([family, types]) => ({ family, types }));
}

export function emptyChannelForm(type: ChannelType = 'smtp'): ChannelForm {
  return {
    name: '',
    type,
    enabled: true,
    language: 'zh-CN',
    fields: defaults(type),
    headers: [],
    groupWaitSeconds: CHANNEL_GROUPING.waitDefault,
    groupIntervalSeconds: CHANNEL_GROUPING.intervalDefault,
  };
}

/** A new type starts from its own defaults (spec section 4): nothing of the old type's values carries over. */
export function withType(form: ChannelForm, type: ChannelType): ChannelForm {
  return { ...form, type, fields: defaults(type), headers: [] };
}

function defaults(type: ChannelType): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const field of inputFields(type)) if (field.default !== undefined) fields[field.name] = String(field.default);
  return fields;
}

function parseConfig(config: string | Record<string, unknown>): Record<string, unknown> {
  if (typeof config !== 'string') return config;
  try {
    const parsed: unknown = JSON.parse(config);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** A saved channel as the dialog edits it; its secrets stay masked unless retyped. */
export function formFromChannel(channel: NotificationChannelDto): ChannelForm {
  const config = parseConfig(channel.config);
  const fields = isChannelType(channel.type) ? defaults(channel.type) : {};
  for (const field of isChannelType(channel.type) ? inputFields(channel.type) : []) {
    const value = config[field.name];
    if (Array.isArray(value)) fields[field.name] = value.join(', ');
    else if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') fields[field.name] = String(value);
  }
  const map = isChannelType(channel.type) ? mapField(channel.type) : undefined;
  const rows = map ? config[map.name] : undefined;
  const headers =
    typeof rows === 'object' && rows !== null
      ? Object.entries(rows as Record<string, unknown>).map(([name, value]) => ({ name, value: String(value) }))
      : [];
  return {
    name: channel.name,
    type: channel.type,
    enabled: channel.enabled,
    language: channel.language ?? 'zh-CN',
    fields,
    headers,
    groupWaitSeconds: channel.group_wait_seconds ?? CHANNEL_GROUPING.waitDefault,
    groupIntervalSeconds: channel.group_interval_seconds ?? CHANNEL_GROUPING.intervalDefault,
  };
}

/** The config as the form holds it; the spec's rules (here and on the server) turn its text into numbers, flags and lists. */
function formConfig(form: ChannelForm): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  for (const field of inputFields(form.type)) {
    const value = (form.fields[field.name] ?? '').trim();
    if (value) config[field.name] = value;
  }
  const map = mapField(form.type);
  if (map) {
    const rows = Object.fromEntries(form.headers.filter((row) => row.name.trim()).map((row) => [row.name.trim(), row.value]));
    if (Object.keys(rows).length > 0) config[map.name] = rows;
  }
  return config;
}

export function toChannelRequest(form: ChannelForm): ChannelRequest {
  return {
    name: form.name.trim(),
    type: form.type,
    enabled: form.enabled,
    language: form.language,
    config: JSON.stringify(formConfig(form)),
    groupWaitSeconds: form.groupWaitSeconds,
    groupIntervalSeconds: form.groupIntervalSeconds,
  };
}

/** The name's rules and the type's spec (shared with the server through proto), with its messages as translation keys. */
export function validateChannel(form: ChannelForm): ChannelErrors {
  const errors: ChannelErrors = {};
  const name = form.name.trim();
  if (!name) errors.name = 'server.notifications.channelNameRequired';
  else if (name.length > CHANNEL_NAME_MAX) errors.name = 'server.notifications.channelNameTooLong';
  if (!groupingValid(form.groupWaitSeconds, CHANNEL_GROUPING.waitMax)) errors.groupWaitSeconds = 'alerts.grouping.invalid';
  if (!groupingValid(form.groupIntervalSeconds, CHANNEL_GROUPING.intervalMax)) errors.groupIntervalSeconds = 'alerts.grouping.invalid';
  // Secrets read back masked pass here: the server puts the saved ones back before its own run of the same rules.
  for (const problem of fieldProblems(channelSpec(form.type), formConfig(form), { masked: true })) {
    errors[problem.field ?? 'config'] ??= `server.${problem.code}`;
  }
  return errors;
}

/** A grouping window is a whole number of seconds from 0 to `max`. */
function groupingValid(seconds: number, max: number): boolean {
  return Number.isInteger(seconds) && seconds >= 0 && seconds <= max;
}

/** A server refusal that names a config field (a secret to type again, a value its rules refuse), as that field's error. */
export function serverFieldError(error: unknown): ChannelErrors | null {
  if (!(error instanceof ApiError) || !error.field || !error.code) return null;
  return { [error.field]: `server.${error.code}` };
}

export function isChannelId(id: unknown): id is number {
  return typeof id === 'number' && Number.isInteger(id) && id > 0;
}
