import { Badge, Card, Group, Stack, Text } from '@mantine/core';
import type { PublicMonitor } from '@vigil/proto';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { UptimeBar } from '../../../components/UptimeBar/UptimeBar';
import { CertificateBadge } from '../../monitors/components/CertificateBadge';
import { FlappingBadge } from '../../monitors/components/MonitorStatusBadge';
import { MonitorTypeBadge } from '../../monitors/components/MonitorTypeBadge';
import { formatDateTime, formatResponseTime, formatUptime } from '../../monitors/format';
import { publicMonitorStatus, statusColor, statusLabel } from '../labels';

/**
 * A service on the public page: name, status, its type and certificate days (never its target), the 24-slot uptime bar,
 * uptime, response time and last check.
 */
export const PublicMonitorCard = memo(function PublicMonitorCard({ monitor }: { monitor: PublicMonitor }) {
  const { t, i18n } = useTranslation();
  const status = publicMonitorStatus(monitor.status);
  return (
    <Card withBorder radius="md" padding="md" className="vigil-status-monitor" data-testid={`status-monitor-${monitor.id}`}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Text fw={600} truncate="end" title={monitor.name}>
            {monitor.name}
          </Text>
          <Badge
            variant="light"
            color={statusColor('monitor', status)}
            data-testid={`status-monitor-status-${monitor.id}`}
            data-status={status}
          >
            {statusLabel(t, 'monitor', status)}
          </Badge>
        </Group>
        {monitor.flapping && (
          <Group gap={6}>
            <FlappingBadge testId={`status-monitor-flapping-${monitor.id}`} />
          </Group>
        )}
        {(monitor.type || typeof monitor.certificate_days === 'number') && (
          <Group gap={6}>
            {monitor.type && <MonitorTypeBadge type={monitor.type} size="sm" testId={`status-monitor-type-${monitor.id}`} />}
            {typeof monitor.certificate_days === 'number' && (
              <CertificateBadge
                size="sm"
                daysRemaining={monitor.certificate_days}
                thresholds={monitor.cert_expiry_days ?? []}
                testId={`status-monitor-certificate-${monitor.id}`}
              />
            )}
          </Group>
        )}
        <UptimeBar points={monitor.history} />
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <div>
            <Text size="xs" c="dimmed">
              {t('statusPage.uptime')}
            </Text>
            <Text size="sm" fw={500}>
              {t('monitor.overview.percent', { value: formatUptime(monitor.uptime) })}
            </Text>
          </div>
          <div>
            <Text size="xs" c="dimmed">
              {t('statusPage.responseTime')}
            </Text>
            <Text size="sm" fw={500}>
              {t('monitor.overview.ms', { value: formatResponseTime(monitor.response_time) })}
            </Text>
          </div>
          <div style={{ textAlign: 'right', minWidth: 0 }}>
            <Text size="xs" c="dimmed">
              {t('statusPage.lastChecked')}
            </Text>
            <Text size="sm" fw={500} truncate="end">
              {monitor.last_checked ? formatDateTime(monitor.last_checked, i18n.language) : t('statusPage.notChecked')}
            </Text>
          </div>
        </Group>
      </Stack>
    </Card>
  );
});
