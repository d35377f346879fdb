import { Anchor, Card, Group, Stack, Text } from '@mantine/core';
import type { MonitorDto } from '@vigil/proto';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { UptimeBar } from '../../../components/UptimeBar/UptimeBar';
import { monitorDetailPath } from '../../../routes/paths';
import { formatResponseTime, formatUptime } from '../format';
import { MonitorActions } from './MonitorActions';
import { MonitorStatusBadge } from './MonitorStatusBadge';

interface MonitorCardProps {
  monitor: MonitorDto;
  /** Given on the list: the card then offers view, edit and delete. */
  onDelete?: (monitor: MonitorDto) => void;
  testId?: string;
}

/** One monitor at a glance: name, status, url, the 24-slot uptime bar, response time and uptime. Memoised like table rows. */
export const MonitorCard = memo(function MonitorCard({ monitor, onDelete, testId }: MonitorCardProps) {
  const { t } = useTranslation();
  return (
    <Card withBorder radius="md" padding="md" data-testid={testId}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Anchor component={Link} to={monitorDetailPath(monitor.id)} fw={600} truncate="end">
            {monitor.name}
          </Anchor>
          <MonitorStatusBadge monitor={monitor} testId={`monitor-status-${monitor.id}`} />
        </Group>
        <Text size="xs" c="dimmed" truncate="end" title={monitor.url}>
          {monitor.url}
        </Text>
        <UptimeBar points={monitor.history} />
        <Group justify="space-between" wrap="nowrap">
          <Group gap="lg" wrap="nowrap">
            <div>
              <Text size="xs" c="dimmed">
                {t('monitors.card.responseTime')}
              </Text>
              <Text size="sm" fw={500}>
                {t('monitor.overview.ms', { value: formatResponseTime(monitor.response_time) })}
              </Text>
            </div>
            <div>
              <Text size="xs" c="dimmed">
                {t('monitors.card.uptime')}
              </Text>
              <Text size="sm" fw={500}>
                {t('monitor.overview.percent', { value: formatUptime(monitor.uptime) })}
              </Text>
            </div>
          </Group>
          {onDelete && <MonitorActions monitor={monitor} onDelete={onDelete} />}
        </Group>
      </Stack>
    </Card>
  );
});
