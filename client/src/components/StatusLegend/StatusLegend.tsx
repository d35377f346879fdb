import { Group, Text } from '@mantine/core';
import { MONITOR_STATUSES } from '@vigil/proto';
import { useTranslation } from 'react-i18next';
import classes from '../UptimeBar/UptimeBar.module.css';
import { slotTone } from '../UptimeBar/slots';

/**
 * What the uptime bar's colours mean: one dot per status, in the bar's own colours, each with its word and a hint on
 * hover (degraded counts as up, unreachable as down).
 */
export function StatusLegend() {
  const { t } = useTranslation();
  return (
    <Group gap="sm" component="ul" role="list" aria-label={t('uptimeBar.legend')} data-testid="status-legend" m={0} p={0}>
      {MONITOR_STATUSES.map((status) => (
        <Group key={status} component="li" gap={4} wrap="nowrap" title={t(`uptimeBar.hint.${status}`)} style={{ listStyle: 'none' }}>
          <span className={`${classes.dot} ${classes[slotTone(status)]}`} style={{ flex: '0 0 10px', height: 10 }} aria-hidden />
          <Text size="xs" c="dimmed">
            {t(`uptimeBar.${status}`)}
          </Text>
        </Group>
      ))}
    </Group>
  );
}
