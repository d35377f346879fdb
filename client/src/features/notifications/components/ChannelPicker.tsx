import { MultiSelect } from '@mantine/core';
import type { NotificationChannelDto } from '@vigil/proto';
import { useTranslation } from 'react-i18next';
import { selectCanWrite, useAuthStore } from '../../auth/store';

interface ChannelPickerProps {
  channels: readonly NotificationChannelDto[];
  value: readonly number[];
  onChange: (ids: number[]) => void;
  testId: string;
}

/**
 * The channels a setting sends to; a disabled channel can be chosen but is marked, since it sends nothing. A viewer sees
 * the choice but cannot change it.
 */
export function ChannelPicker({ channels, value, onChange, testId }: ChannelPickerProps) {
  const { t } = useTranslation();
  const canWrite = useAuthStore(selectCanWrite);
  const known = new Set(channels.map((channel) => channel.id));
  const data = channels.map((channel) => ({
    value: String(channel.id),
    label: `${channel.name} (${t(`notifications.types.${channel.type}`)})${channel.enabled ? '' : ` · ${t('notifications.channels.disabled')}`}`,
  }));
  const chosen = value.filter((id) => known.has(id)).map(String);
  return (
    <MultiSelect
      label={t('notifications.settings.channels')}
      description={chosen.length === 0 && channels.length > 0 ? t('notifications.settings.noChannelSelected') : undefined}
      placeholder={channels.length === 0 ? t('notifications.settings.noChannels') : t('notifications.settings.pickChannels')}
      data={data}
      value={chosen}
      onChange={(ids) => onChange(ids.map(Number))}
      disabled={!canWrite || channels.length === 0}
      searchable
      clearable
      nothingFoundMessage={t('notifications.settings.noChannelMatch')}
      data-testid={testId}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
