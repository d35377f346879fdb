import { NumberInput, PasswordInput, Select, Switch, Textarea, TextInput } from '@mantine/core';
import { isSecretField, type ChannelFieldSpec } from '@vigil/proto';

export interface SpecFieldInputProps {
  field: ChannelFieldSpec;
  /** As the form holds it: text, with numbers, lists and flags written out. */
  value: string;
  onChange: (value: string) => void;
  label: string;
  /** Help text, or under a field read back masked what keeping the mask does. */
  description?: string;
  error?: string;
  /** A `select` choice as shown; by default the value itself. */
  optionLabel?: (option: string) => string;
  name?: string;
  testId: string;
}

/**
 * One field of a spec (a channel's config, a monitor type's settings), drawn after its kind; the caller words its
 * label and help from its own dictionary. `map` fields are typed as JSON text here (the spec's rules read it); a `list`
 * of `lines` (a browser check's steps) is one item per line, since its items may hold commas.
 */
export function SpecFieldInput({ field, value, onChange, label, description, error, optionLabel, name, testId }: SpecFieldInputProps) {
  const common = { label, required: field.required === true, error, description, name, 'data-testid': testId };

  switch (field.kind) {
    case 'boolean':
      return (
        <Switch
          label={label}
          description={description}
          name={name}
          checked={value === 'true'}
          onChange={(event) => onChange(String(event.currentTarget.checked))}
          error={error}
          data-testid={testId}
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
    case 'select':
      return (
        <Select
          {...common}
          data={(field.options ?? []).map((option) => ({ value: option, label: optionLabel?.(option) ?? option }))}
          value={value || null}
          onChange={(next) => onChange(next ?? '')}
          allowDeselect={!field.required && field.default === undefined}
          comboboxProps={{ withinPortal: true }}
        />
      );
    default: {
      if (field.kind === 'list' && field.lines) {
        return (
          <Textarea
            {...common}
            placeholder={field.placeholder}
            value={value}
            onChange={(event) => onChange(event.currentTarget.value)}
            autosize
            minRows={3}
            maxRows={12}
            spellCheck={false}
            autoComplete="off"
          />
        );
      }
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
