import { Stack, Text, TextInput } from '@mantine/core';
import { isSecretField, type MonitorDto, type MonitorFieldSpec, type MonitorType, SECRET_MASK, typeSpec } from '@vigil/proto';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { SpecFieldInput } from '../../../components/SpecFieldInput/SpecFieldInput';
import type { FieldGroupProps } from '../form';
import { settingsFieldSet, settingText } from '../types/settings';
import { SettingAgentPicker } from './SettingAgentPicker';

/** A spec field's label, help and choices: `monitor.typeSettings.<type>.<field>`, `…<field>Help`, `…<field>Options.<value>`. */
export function specText(t: TFunction, exists: (key: string) => boolean, type: MonitorType) {
  // Keys are built from the spec; a test checks every added type's settings fields have them in both dictionaries.
  const text = (key: string) => t(key as 'monitor.form.hostname');
  return {
    label: (field: MonitorFieldSpec) => {
      const key = `monitor.typeSettings.${type}.${field.name}`;
      // A shared column without a label of its own reads as the form's (Hostname, Port, URL).
      return field.column && field.column !== 'own' && !exists(key) ? text(`monitor.form.${field.column}`) : text(key);
    },
    help: (field: MonitorFieldSpec) => (field.help ? text(`monitor.typeSettings.${type}.${field.name}Help`) : undefined),
    /** A `select` choice: `monitor.typeSettings.<type>.<field>Options.<value>`, else the value itself. */
    option: (field: MonitorFieldSpec, value: string) => {
      const key = `monitor.typeSettings.${type}.${field.name}Options.${value}`;
      return exists(key) ? text(key) : value;
    },
    kept: t('monitor.form.secretKept'),
  };
}

/**
 * An added type's fields in its spec's order (the first types have hand-made ones): the shared columns it uses
 * (host, port, URL) under the form's own rules, its settings under the spec's rules with the server's messages.
 */
export function SpecTypeFields({ values, set, fieldError }: FieldGroupProps) {
  const { t, i18n } = useTranslation();
  const { type } = values;
  const text = specText(t, (key) => i18n.exists(key), type);
  const fields = typeSpec(type).fields;
  const setSetting = (name: string, value: string) => set('settings', { ...values.settings, [name]: value });

  if (fields.length === 0) return null;
  return (
    <Stack gap="md" data-testid="monitor-spec-fields">
      {fields.map((field) => {
        const column = field.column;
        // The first types' own columns have hand-made inputs; an added type has none.
        if (column === 'own') return null;
        if (column === 'hostname' || column === 'port' || column === 'url') {
          return (
            <TextInput
              key={`${type}-${field.name}`}
              name={column}
              type={column === 'url' ? 'url' : undefined}
              inputMode={column === 'port' ? 'numeric' : undefined}
              label={text.label(field)}
              description={text.help(field)}
              placeholder={field.placeholder}
              withAsterisk={field.required === true}
              autoComplete="off"
              value={values[column]}
              error={fieldError(column)}
              onChange={(event) => set(column, event.currentTarget.value)}
            />
          );
        }
        const value = settingText(values.settings[field.name], field);
        if (field.ref === 'agent') {
          return (
            <SettingAgentPicker
              key={`${type}-${field.name}`}
              value={value}
              onChange={(next) => setSetting(field.name, next)}
              label={text.label(field)}
              description={text.help(field)}
              required={field.required === true}
              error={fieldError(`setting-${field.name}`)}
              testId={`monitor-setting-${field.name}`}
            />
          );
        }
        const kept = isSecretField(field) && value.includes(SECRET_MASK);
        return (
          <SpecFieldInput
            key={`${type}-${field.name}`}
            field={field}
            name={field.name}
            value={value}
            onChange={(next) => setSetting(field.name, next)}
            label={text.label(field)}
            description={kept ? text.kept : text.help(field)}
            optionLabel={(option) => text.option(field, option)}
            error={fieldError(`setting-${field.name}`)}
            testId={`monitor-setting-${field.name}`}
          />
        );
      })}
      {fieldError('settings') && (
        <Text size="sm" c="red" role="alert" data-testid="monitor-settings-error">
          {fieldError('settings')}
        </Text>
      )}
    </Stack>
  );
}

/** An added type's settings as the settings tab lists them: label and value, secrets as the read's mask. */
export function specSettingRows(t: TFunction, exists: (key: string) => boolean, monitor: MonitorDto): [string, string][] {
  const text = specText(t, exists, monitor.type);
  const settings = monitor.settings ?? {};
  return settingsFieldSet(monitor.type)
    .fields.filter((field) => settingText(settings[field.name]) !== '')
    .map((field) => {
      const value = settingText(settings[field.name], field);
      return [text.label(field), field.kind === 'select' ? text.option(field, value) : value];
    });
}
