import { Card, SimpleGrid, Stack, Text } from '@mantine/core';
import { DETAIL_HISTORY_POINTS, type MonitorDto } from '@vigil/proto';
import { useTranslation } from 'react-i18next';
import { StatusLegend } from '../../../components/StatusLegend/StatusLegend';
import { UptimeBar } from '../../../components/UptimeBar/UptimeBar';
import { expectedStatusLabel, formatDateTime, formatResponseTime, formatUptime } from '../format';
import { InfoItem } from '../../../components/InfoItem/InfoItem';
import { MonitorStatsPanel } from './MonitorStatsPanel';
import { CertificateBadge } from './CertificateBadge';
import { MonitorStatusBadge } from './MonitorStatusBadge';
import { MonitorTarget } from './MonitorTarget';
import { MonitorTypeBadge } from './MonitorTypeBadge';
import { PushUrlPanel } from './PushUrlPanel';

/**
 * The overview tab (spec section 2): a push monitor's URL, status, the last 40 checks, timings, type and target, the
 * certificate, schedule, then the chart.
 */
export function MonitorOverview({ monitor }: { monitor: MonitorDto }) {
  const { t, i18n } = useTranslation();
  const recent = monitor.history.slice(-DETAIL_HISTORY_POINTS);
  const http = monitor.type === 'http';
  const { certificate } = monitor;
  return (
    <Stack gap="lg">
      {monitor.type === 'push' && monitor.push_token && <PushUrlPanel token={monitor.push_token} interval={monitor.interval} />}
      <Card withBorder radius="md" padding="lg">
        <Stack gap="lg">
          <Stack gap="xs">
            <Text size="sm" c="dimmed">
              {t('monitor.overview.recent', { points: DETAIL_HISTORY_POINTS })}
            </Text>
            <UptimeBar points={recent} slots={DETAIL_HISTORY_POINTS} />
            <StatusLegend />
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
            <InfoItem label={t('monitor.overview.type')}>
              <MonitorTypeBadge type={monitor.type} testId="monitor-detail-type" />
            </InfoItem>
            <InfoItem label={t('monitor.overview.target')}>
              <MonitorTarget
                monitor={monitor}
                c={undefined}
                truncate={false}
                style={{ overflowWrap: 'anywhere' }}
                testId="monitor-detail-target"
              />
            </InfoItem>
            {http && <InfoItem label={t('monitor.overview.method')}>{monitor.method}</InfoItem>}
            <InfoItem label={t('monitor.overview.interval')}>{t('monitor.overview.seconds', { value: monitor.interval })}</InfoItem>
            <InfoItem label={t('monitor.overview.timeout')}>{t('monitor.overview.seconds', { value: monitor.timeout })}</InfoItem>
            {http && (
              <InfoItem label={t('monitor.overview.expectedStatus')} testId="monitor-expected-status">
                {expectedStatusLabel(monitor.expected_status)}
              </InfoItem>
            )}
            {certificate && (
              <InfoItem label={t('monitor.overview.certificate')} testId="monitor-detail-certificate">
                <CertificateBadge daysRemaining={certificate.days_remaining} thresholds={monitor.cert_expiry_days} />
                <Text size="xs" c="dimmed" mt={4} style={{ overflowWrap: 'anywhere' }}>
                  {t('monitor.certificate.summary', {
                    subject: certificate.subject,
                    issuer: certificate.issuer,
                    expires: formatDateTime(certificate.expires_at, i18n.language),
                  })}
                </Text>
              </InfoItem>
            )}
            <InfoItem label={t('monitor.overview.created')}>{formatDateTime(monitor.created_at, i18n.language)}</InfoItem>
          </SimpleGrid>
        </Stack>
      </Card>
      <MonitorStatsPanel monitorId={monitor.id} freshness={monitor.last_checked} />
    </Stack>
  );
}
