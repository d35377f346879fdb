import type { ChannelFieldSpec, ChannelType } from '@vigil/proto';
import { useTranslation } from 'react-i18next';
import { SpecFieldInput } from '../../../components/SpecFieldInput/SpecFieldInput';

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
  const optionKey = (option: string) => `notifications.options.${type}.${field.name}.${option}`;
  return (
    <SpecFieldInput
      field={field}
      value={value}
      onChange={onChange}
      label={t(key('fields'))}
      description={keptHint ?? (field.help ? t(key('help')) : undefined)}
      error={error}
      // Options without a dictionary entry (P1, 1–5) read as they are.
      optionLabel={(option) => (i18n.exists(optionKey(option)) ? t(optionKey(option) as 'notifications.fields.telegram.botToken') : option)}
      testId={`channel-field-${field.name}`}
    />
  );
}
