import { Stack, Switch } from '@mantine/core';
import type { MonitorNotificationSettings, NotificationChannelDto } from '@vigil/proto';
import { useTranslation } from 'react-i18next';
import { FollowUpFields } from '../../alerts/components/FollowUpFields';
import { selectCanWrite, useAuthStore } from '../../auth/store';
import { ChannelPicker } from './ChannelPicker';

interface MonitorOptionsProps {
  value: MonitorNotificationSettings;
  channels: readonly NotificationChannelDto[];
  onChange: (patch: Partial<MonitorNotificationSettings>) => void;
  testId: string;
}

/** Which monitor events notify, and where; read-only to a viewer. */
export function MonitorOptions({ value, channels, onChange, testId }: MonitorOptionsProps) {
  const { t } = useTranslation();
  const canWrite = useAuthStore(selectCanWrite);
  return (
    <Stack gap="sm">
      <Switch
        label={t('notifications.settings.onDown')}
        disabled={!canWrite}
        checked={value.onDown}
        onChange={(event) => onChange({ onDown: event.currentTarget.checked })}
        data-testid={`${testId}-on-down`}
      />
      <Switch
        label={t('notifications.settings.onMonitorRecovery')}
        disabled={!canWrite}
        checked={value.onRecovery}
        onChange={(event) => onChange({ onRecovery: event.currentTarget.checked })}
        data-testid={`${testId}-on-recovery`}
      />
      <Switch
        label={t('notifications.settings.onCertificateExpiry')}
        description={t('notifications.settings.onCertificateExpiryHint')}
        disabled={!canWrite}
        checked={value.onCertificateExpiry}
        onChange={(event) => onChange({ onCertificateExpiry: event.currentTarget.checked })}
        data-testid={`${testId}-on-certificate-expiry`}
      />
      <Switch
        label={t('alerts.settings.onDegraded')}
        description={t('alerts.settings.onDegradedHint')}
        disabled={!canWrite}
        checked={value.onDegraded}
        onChange={(event) => onChange({ onDegraded: event.currentTarget.checked })}
        data-testid={`${testId}-on-degraded`}
      />
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
