import { Card, SimpleGrid, Stack, Text } from '@mantine/core';
import { DETAIL_HISTORY_POINTS, type MonitorDto } from '@vigil/proto';
import { useTranslation } from 'react-i18next';
import { UptimeBar } from '../../../components/UptimeBar/UptimeBar';
import { expectedStatusLabel, formatDateTime, formatResponseTime, formatUptime } from '../format';
import { InfoItem } from '../../../components/InfoItem/InfoItem';
import { MonitorStatsPanel } from './MonitorStatsPanel';
import { MonitorStatusBadge } from './MonitorStatusBadge';

/** The overview tab (spec section 2): status, the last 40 checks, timings, target and schedule, then the chart. */
export function MonitorOverview({ monitor }: { monitor: MonitorDto }) {
  const { t, i18n } = useTranslation();
  const recent = monitor.history.slice(-DETAIL_HISTORY_POINTS);
  return (
    <Stack gap="lg">
      <Card withBorder radius="md" padding="lg">
        <Stack gap="lg">
          <Stack gap="xs">
            <Text size="sm" c="dimmed">
              {t('monitor.overview.recent', { points: DETAIL_HISTORY_POINTS })}
            </Text>
            <UptimeBar points={recent} slots={DETAIL_HISTORY_POINTS} />
          </Stack>
          <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="lg">
            <InfoItem label={t('monitor.overview.status')}>
              <MonitorStatusBadge monitor={monitor} />
            </InfoItem>
            <InfoItem label={t('monitor.overview.responseTime')} testId="monitor-response-time">
              {t('monitor.overview.ms', { value: formatResponseTime(monitor.response_time) })}
            </InfoItem>
            <InfoItem label={t('monitor.overview.uptime')}>
              {t('monitor.overview.percent', { value: formatUptime(monitor.uptime) })}
            </InfoItem>
            <InfoItem label={t('monitor.overview.lastCheck')} testId="monitor-last-check">
              {monitor.last_checked ? formatDateTime(monitor.last_checked, i18n.language) : t('monitor.overview.notChecked')}
            </InfoItem>
            <InfoItem label={t('monitor.overview.url')}>{monitor.url}</InfoItem>
            <InfoItem label={t('monitor.overview.method')}>{monitor.method}</InfoItem>
            <InfoItem label={t('monitor.overview.interval')}>{t('monitor.overview.seconds', { value: monitor.interval })}</InfoItem>
            <InfoItem label={t('monitor.overview.timeout')}>{t('monitor.overview.seconds', { value: monitor.timeout })}</InfoItem>
            <InfoItem label={t('monitor.overview.expectedStatus')} testId="monitor-expected-status">
              {expectedStatusLabel(monitor.expected_status)}
            </InfoItem>
            <InfoItem label={t('monitor.overview.created')}>{formatDateTime(monitor.created_at, i18n.language)}</InfoItem>
          </SimpleGrid>
        </Stack>
      </Card>
      <MonitorStatsPanel monitorId={monitor.id} freshness={monitor.last_checked} />
    </Stack>
  );
}
