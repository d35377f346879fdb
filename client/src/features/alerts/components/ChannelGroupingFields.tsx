import { Group, NumberInput } from '@mantine/core';
import { CHANNEL_GROUPING } from '@vigil/proto';
import { useTranslation } from 'react-i18next';

interface ChannelGroupingFieldsProps {
  wait: number;
  interval: number;
  onChange: (patch: { groupWaitSeconds?: number; groupIntervalSeconds?: number }) => void;
  /** Translated errors of each input, if any. */
  errors: { wait?: string; interval?: string };
}

const secondsOf = (value: string | number): number => (typeof value === 'number' ? value : Number.NaN);

/** The channel dialog's storm grouping: how long to gather transitions into one message, and how often to send more. */
export function ChannelGroupingFields({ wait, interval, onChange, errors }: ChannelGroupingFieldsProps) {
  const { t } = useTranslation();
  return (
    <Group grow align="flex-start" wrap="wrap" data-testid="channel-grouping">
      <NumberInput
        label={t('alerts.grouping.wait')}
        description={t('alerts.grouping.waitHint', { value: CHANNEL_GROUPING.waitDefault })}
        value={Number.isNaN(wait) ? '' : wait}
        onChange={(next) => onChange({ groupWaitSeconds: secondsOf(next) })}
        min={0}
        max={CHANNEL_GROUPING.waitMax}
        allowDecimal={false}
        allowNegative={false}
        clampBehavior="none"
        miw={160}
        error={errors.wait}
        data-testid="channel-group-wait"
      />
      <NumberInput
        label={t('alerts.grouping.interval')}
        description={t('alerts.grouping.intervalHint', { value: CHANNEL_GROUPING.intervalDefault })}
        value={Number.isNaN(interval) ? '' : interval}
        onChange={(next) => onChange({ groupIntervalSeconds: secondsOf(next) })}
        min={0}
        max={CHANNEL_GROUPING.intervalMax}
        allowDecimal={false}
        allowNegative={false}
        clampBehavior="none"
        miw={160}
        error={errors.interval}
        data-testid="channel-group-interval"
      />
    </Group>
  );
}
