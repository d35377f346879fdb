/**
 * The settings of the types added after the first ones, as the form holds them: one text per field of the type's spec
 * (monitor-type-specs.ts in proto), checked by the spec's own rules (`fieldProblems`, the server's) and sent flat in
 * the body (`mqttTopic` beside `name`). A secret read back masked is sent back as the mask, which keeps it.
 */
import {
  type FieldSet,
  fieldProblems,
  isAddedType,
  type MessageCode,
  type MonitorColumn,
  type MonitorFieldSpec,
  type MonitorType,
  settingsFields,
  typeSpec,
  validateFields,
} from '@vigil/proto';

/** A field's error key in the form: `setting-<field name>`, or `settings` for the rule across fields. */
export type SettingField = `setting-${string}` | 'settings';

/** The fields and cross-field rule an added type's settings follow (none for the first types, kept in their columns). */
export function settingsFieldSet(type: MonitorType): FieldSet {
  const spec = typeSpec(type);
  return isAddedType(type) ? { fields: settingsFields(spec), check: spec.check } : { fields: [] };
}

/** The type's field stored in a shared column (hostname, port, url), if it has one. */
export function columnField(type: MonitorType, column: MonitorColumn): MonitorFieldSpec | undefined {
  return typeSpec(type).fields.find((field) => field.column === column);
}

/**
 * A setting as its input holds it: lists comma-separated (a `lines` list, whose items may hold commas, one per line),
 * maps as JSON, numbers and flags written out.
 */
export function settingText(value: unknown, field?: Pick<MonitorFieldSpec, 'lines'>): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) return value.join(field?.lines ? '\n' : ', ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** A newly chosen type's settings: its defaults. */
export function defaultSettings(type: MonitorType): Record<string, unknown> {
  const settings: Record<string, unknown> = {};
  for (const field of settingsFieldSet(type).fields) if (field.default !== undefined) settings[field.name] = String(field.default);
  return settings;
}

/** A read's settings (secrets masked) as the form edits them; fields it lacks start from their defaults. */
export function settingsFromRead(type: MonitorType, read: Record<string, unknown> | null | undefined): Record<string, unknown> {
  const settings = defaultSettings(type);
  for (const field of settingsFieldSet(type).fields) {
    const value = read?.[field.name];
    if (value !== undefined && value !== null) settings[field.name] = settingText(value, field);
  }
  return settings;
}

/** Every problem of the settings as the server's rule names them; a mask stands for the saved secret. */
export function settingsProblems(type: MonitorType, settings: Record<string, unknown>): Partial<Record<SettingField, MessageCode>> {
  const errors: Partial<Record<SettingField, MessageCode>> = {};
  for (const problem of fieldProblems(settingsFieldSet(type), settings, { masked: true })) {
    const key: SettingField = problem.field === null ? 'settings' : `setting-${problem.field}`;
    errors[key] ??= problem.code;
  }
  return errors;
}

/**
 * The settings for the body, flat: as the spec reads them (numbers, flags and lists typed, defaults filled, blanks
 * left out), so the server's run of the same rule sees what the form checked.
 */
export function settingsBody(type: MonitorType, settings: Record<string, unknown>): Record<string, unknown> {
  const checked = validateFields(settingsFieldSet(type), settings, { masked: true });
  if (checked.ok) return checked.config;
  // Not valid (the form refuses to send it): pass the typed text on, for the server to name the field.
  return Object.fromEntries(
    settingsFieldSet(type)
      .fields.map((field) => [field.name, settings[field.name]] as const)
      .filter(([, value]) => typeof value !== 'string' || value.trim() !== ''),
  );
}
