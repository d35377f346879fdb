import { Group, NumberInput, Stack, Switch } from '@mantine/core';
import type { AgentNotificationSettings, NotificationChannelDto } from '@vigil/proto';
import { useTranslation } from 'react-i18next';
import { FollowUpFields } from '../../alerts/components/FollowUpFields';
import { selectCanWrite, useAuthStore } from '../../auth/store';
import { AGENT_ITEM_ALERTS, AGENT_THRESHOLDS, isThreshold } from '../settings';
import { ChannelPicker } from './ChannelPicker';

interface AgentOptionsProps {
  value: AgentNotificationSettings;
  channels: readonly NotificationChannelDto[];
  onChange: (patch: Partial<AgentNotificationSettings>) => void;
  testId: string;
}

/**
 * Which agent events notify, the resource thresholds (inputs only while their alert is on), the container and unit
 * alerts, and where; read-only to a viewer.
 */
export function AgentOptions({ value, channels, onChange, testId }: AgentOptionsProps) {
  const { t } = useTranslation();
  const canWrite = useAuthStore(selectCanWrite);
  return (
    <Stack gap="sm">
      <Switch
        label={t('notifications.settings.onOffline')}
        disabled={!canWrite}
        checked={value.onOffline}
        onChange={(event) => onChange({ onOffline: event.currentTarget.checked })}
        data-testid={`${testId}-on-offline`}
      />
      <Switch
        label={t('notifications.settings.onAgentRecovery')}
        disabled={!canWrite}
        checked={value.onRecovery}
        onChange={(event) => onChange({ onRecovery: event.currentTarget.checked })}
        data-testid={`${testId}-on-recovery`}
      />
      {AGENT_THRESHOLDS.map(({ metric, toggle, field, min, max, unit }) => (
        <Group key={metric} gap="md" align="center" mih={36}>
          <Switch
            label={t(`notifications.settings.on.${metric}`)}
            disabled={!canWrite}
            checked={value[toggle]}
            onChange={(event) => onChange({ [toggle]: event.currentTarget.checked })}
            data-testid={`${testId}-on-${metric}`}
            w={220}
          />
          {value[toggle] && (
            <NumberInput
              aria-label={t(`notifications.settings.threshold.${metric}`)}
              disabled={!canWrite}
              value={value[field]}
              onChange={(next) => onChange({ [field]: typeof next === 'number' ? next : Number.NaN })}
              min={min}
              max={max}
              allowDecimal={false}
              allowNegative={false}
              clampBehavior="none"
              suffix={` ${unit}`}
              w={140}
              error={
                isThreshold(value[field], min, max)
                  ? undefined
                  : t(max === 100 ? 'server.notifications.thresholdInvalid' : 'server.notifications.hostThresholdInvalid')
              }
              data-testid={`${testId}-${metric}-threshold`}
            />
          )}
        </Group>
      ))}
      {AGENT_ITEM_ALERTS.map(({ alert, toggle }) => (
        <Switch
          key={alert}
          label={t(`notifications.settings.on.${alert}`)}
          description={t(`notifications.settings.onHint.${alert}`)}
          disabled={!canWrite}
          checked={value[toggle]}
          onChange={(event) => onChange({ [toggle]: event.currentTarget.checked })}
          data-testid={`${testId}-on-${alert}`}
        />
      ))}
      <ChannelPicker
        channels={channels}
        value={value.channels}
        onChange={(ids) => onChange({ channels: ids })}
        testId={`${testId}-channels`}
      />
      <FollowUpFields value={value} channels={channels} onChange={onChange} testId={testId} />
    </Stack>
  );
}
