import { Anchor, Card, Group, Stack, Text } from '@mantine/core';
import type { MonitorDto } from '@vigil/proto';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { UptimeBar } from '../../../components/UptimeBar/UptimeBar';
import { monitorDetailPath } from '../../../routes/paths';
import { MutedIcon } from '../../alerts/components/MutedBadge';
import { MonitorMaintenanceHint } from '../../maintenance/components/MonitorMaintenance';
import { formatResponseTime, formatUptime } from '../format';
import { CertificateBadge } from './CertificateBadge';
import { MonitorActions } from './MonitorActions';
import { MonitorStatusBadge } from './MonitorStatusBadge';
import { MonitorTarget } from './MonitorTarget';
import { MonitorTags } from './MonitorTags';
import { MonitorTypeBadge } from './MonitorTypeBadge';

interface MonitorCardProps {
  monitor: MonitorDto;
  /** Given on the list: the card then offers view, edit and delete. */
  onDelete?: (monitor: MonitorDto) => void;
  testId?: string;
}

/** One monitor at a glance: name, status, type and target (with the certificate's days), the 24-slot uptime bar, response time and uptime. Memoised like table rows. */
export const MonitorCard = memo(function MonitorCard({ monitor, onDelete, testId }: MonitorCardProps) {
  const { t } = useTranslation();
  return (
    <Card withBorder radius="md" padding="md" data-testid={testId}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Group gap={4} wrap="nowrap" miw={0}>
            <Anchor component={Link} to={monitorDetailPath(monitor.id)} fw={600} truncate="end">
              {monitor.name}
            </Anchor>
            <MutedIcon until={monitor.muted_until} testId={`monitor-muted-${monitor.id}`} />
          </Group>
          <Group gap={2} wrap="nowrap">
            {monitor.active && monitor.status === 'maintenance' && <MonitorMaintenanceHint monitorId={monitor.id} />}
            <MonitorStatusBadge monitor={monitor} testId={`monitor-status-${monitor.id}`} />
          </Group>
        </Group>
        <MonitorTags tags={monitor.tags ?? []} testId={`monitor-tags-${monitor.id}`} />
        <Group gap={6} wrap="nowrap">
          <MonitorTypeBadge type={monitor.type} size="sm" />
          <MonitorTarget monitor={monitor} size="xs" miw={0} style={{ flex: 1 }} />
          {monitor.certificate && (
            <CertificateBadge
              size="sm"
              daysRemaining={monitor.certificate.days_remaining}
              thresholds={monitor.cert_expiry_days}
              testId={`monitor-certificate-${monitor.id}`}
            />
          )}
        </Group>
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
