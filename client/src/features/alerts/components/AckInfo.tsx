import { Text } from '@mantine/core';
import type { AlertDto } from '@vigil/proto';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../monitors/format';

/** Who acknowledged the alert, when, and their note. */
export function AckInfo({ alert }: { alert: AlertDto }) {
  const { t, i18n } = useTranslation();
  if (!alert.acknowledged_at) return null;
  return (
    <div data-testid={`alert-ack-info-${alert.id}`}>
      <Text size="xs" c="dimmed">
        {t('alerts.ack.by', {
          name: alert.acknowledged_by?.username ?? t('alerts.ack.someone'),
          time: formatDateTime(alert.acknowledged_at, i18n.language),
        })}
      </Text>
      {alert.ack_note && (
        <Text size="xs" fs="italic" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          “{alert.ack_note}”
        </Text>
      )}
    </div>
  );
}
