import { Alert, Group, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../monitors/format';
import { metricLabel } from '../metricLabel';
import { useTargetAlerts } from '../useOpenAlerts';
import { AckButton } from './AckButton';
import { AckInfo } from './AckInfo';

/** A detail page's open alerts (down, offline, a metric over its threshold…), each with its acknowledgement. */
export function TargetAlerts({ kind, id }: { kind: 'monitor' | 'agent'; id: number }) {
  const { t, i18n } = useTranslation();
  const alerts = useTargetAlerts(kind, id);
  if (alerts.length === 0) return null;
  return (
    <Stack gap="xs" data-testid="target-alerts">
      {alerts.map((alert) => (
        <Alert
          key={alert.id}
          color={alert.state === 'open' ? 'red' : 'orange'}
          variant="light"
          icon={<IconAlertTriangle size={18} />}
          data-testid={`target-alert-${alert.id}`}
        >
          <Group justify="space-between" gap="sm" wrap="wrap">
            <div>
              <Text size="sm" fw={500}>
                {t('alerts.target.summary', {
                  metric: metricLabel(t, alert),
                  state: t(`alerts.states.${alert.state}`),
                  time: formatDateTime(alert.opened_at, i18n.language),
                })}
              </Text>
              <AckInfo alert={alert} />
            </div>
            <AckButton alert={alert} size="sm" />
          </Group>
        </Alert>
      ))}
    </Stack>
  );
}
