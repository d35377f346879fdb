import { NumberInput, PasswordInput, Select, Switch, TextInput } from '@mantine/core';
import { isSecretField, type ChannelFieldSpec, type ChannelType } from '@vigil/proto';
import { useTranslation } from 'react-i18next';

interface FieldInputProps {
  type: ChannelType;
  field: ChannelFieldSpec;
  /** As the form holds it: text, with numbers, lists and flags written out. */
  value: string;
  onChange: (value: string) => void;
  error?: string;
  /** Under a field read back masked: what keeping the mask does. */
  keptHint?: string;
}

/** One field of a channel's config, drawn after its kind in CHANNEL_SPECS; labels and help come from the dictionaries. */
export function FieldInput({ type, field, value, onChange, error, keptHint }: FieldInputProps) {
  const { t, i18n } = useTranslation();
  // Keys are built from the spec, whose every type and field has a label in both dictionaries (a test checks).
  const key = (prefix: string) => `notifications.${prefix}.${type}.${field.name}` as 'notifications.fields.telegram.botToken';
  const help = field.help ? t(key('help')) : undefined;
  const common = {
    label: t(key('fields')),
    required: field.required === true,
    error,
    description: keptHint ?? help,
    'data-testid': `channel-field-${field.name}`,
  };

  switch (field.kind) {
    case 'boolean':
      return (
        <Switch
          label={common.label}
          description={common.description}
          checked={value === 'true'}
          onChange={(event) => onChange(String(event.currentTarget.checked))}
          error={error}
          data-testid={common['data-testid']}
        />
      );
    case 'number':
      return (
        <NumberInput
          {...common}
          value={value === '' ? '' : Number(value)}
          min={field.min}
          max={field.max}
          allowDecimal={false}
          onChange={(next) => onChange(next === '' ? '' : String(next))}
        />
      );
    case 'select': {
      const optionKey = (option: string) => `notifications.options.${type}.${field.name}.${option}`;
      return (
        <Select
          {...common}
          data={(field.options ?? []).map((option) => ({
            value: option,
            // Options without a dictionary entry (P1, 1–5) read as they are.
            label: i18n.exists(optionKey(option)) ? t(optionKey(option) as 'notifications.fields.telegram.botToken') : option,
          }))}
          value={value || null}
          onChange={(next) => onChange(next ?? '')}
          allowDeselect={!field.required && field.default === undefined}
          comboboxProps={{ withinPortal: true }}
        />
      );
    }
    default: {
      const props = {
        ...common,
        placeholder: field.placeholder ?? (field.kind === 'list' ? 'a, b, c' : undefined),
        value,
        onChange: (event: React.ChangeEvent<HTMLInputElement>) => onChange(event.currentTarget.value),
        autoComplete: 'off',
      };
      return isSecretField(field) ? <PasswordInput {...props} /> : <TextInput {...props} />;
    }
  }
}
