import { Card, Center, Group, Loader, SegmentedControl, SimpleGrid, Text } from '@mantine/core';
import type { MonitorStatsResponse, StatsRange } from '@vigil/proto';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../api/errors';
import { ErrorState } from '../../../components/PageState/PageState';
import { monitorsApi } from '../api';
import { formatResponseTime, formatUptime } from '../format';
import { InfoItem } from '../../../components/InfoItem/InfoItem';

const ResponseTimeChart = lazy(() => import('./ResponseTimeChart'));

/** The ranges offered on the detail page (the API also has 90d, left to a later screen). */
export const CHART_RANGES = ['24h', '7d', '30d'] as const satisfies readonly StatsRange[];

type Stats = MonitorStatsResponse['stats'];
type LoadState = { status: 'loading' } | { status: 'ready'; stats: Stats; readAt: number } | { status: 'error'; error: unknown };

interface MonitorStatsPanelProps {
  monitorId: number;
  /**
   * Changes when a new check lands. Buckets are hourly, so the panel re-reads at most once per minute of checks
   * rather than on every push.
   */
  freshness: string | null;
}

function minuteOf(timestamp: string | null): number {
  return timestamp ? Math.floor(Date.parse(timestamp) / 60_000) : 0;
}

/** Uptime, average and p95 response time and the response-time chart for 24 h, 7 d or 30 d. */
export function MonitorStatsPanel({ monitorId, freshness }: MonitorStatsPanelProps) {
  const { t, i18n } = useTranslation();
  const [range, setRange] = useState<StatsRange>('24h');
  const [state, setState] = useState<LoadState>({ status: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const minute = minuteOf(freshness);

  useEffect(() => {
    const controller = new AbortController();
    monitorsApi
      .stats(monitorId, range, controller.signal)
      .then((response) => setState({ status: 'ready', stats: response.stats, readAt: Date.now() }))
      .catch((error: unknown) => {
        if (!controller.signal.aborted) setState((current) => (current.status === 'ready' ? current : { status: 'error', error }));
      });
    return () => controller.abort();
  }, [monitorId, range, minute, attempt]);

  function changeRange(next: StatsRange) {
    setState({ status: 'loading' });
    setRange(next);
  }

  const ready = state.status === 'ready' ? state : null;
  const stats = ready?.stats ?? null;
  const timed = stats?.series.some((point) => point.avg_response_time !== null) ?? false;

  return (
    <Card withBorder radius="md" padding="lg" data-testid="monitor-stats">
      <Group justify="space-between" mb="md">
        <Text fw={600}>{t('monitor.chart.title')}</Text>
        <SegmentedControl
          size="xs"
          value={range}
          onChange={(value) => changeRange(value as StatsRange)}
          data={CHART_RANGES.map((value) => ({ value, label: t(`monitor.chart.ranges.${value}`) }))}
          data-testid="monitor-stats-range"
        />
      </Group>
      {state.status === 'error' && (
        <ErrorState message={errorText(t, state.error, t('monitor.chart.loadError'))} onRetry={() => setAttempt((count) => count + 1)} />
      )}
      {state.status === 'loading' && (
        <Center h={300}>
          <Loader size="sm" />
        </Center>
      )}
      {stats && (
        <>
          <SimpleGrid cols={{ base: 2, sm: 4 }} mb="md">
            <InfoItem label={t('monitor.chart.uptime')}>
              {t('monitor.overview.percent', { value: formatUptime(stats.checks ? stats.uptime : null) })}
            </InfoItem>
            <InfoItem label={t('monitor.chart.average')}>
              {t('monitor.overview.ms', { value: formatResponseTime(stats.avg_response_time) })}
            </InfoItem>
            <InfoItem label={t('monitor.chart.p95')}>
              {t('monitor.overview.ms', { value: formatResponseTime(stats.p95_response_time) })}
            </InfoItem>
            <InfoItem label={t('monitor.chart.checks')}>{stats.checks}</InfoItem>
          </SimpleGrid>
          {timed ? (
            <Suspense
              fallback={
                <Center h={240}>
                  <Loader size="sm" />
                </Center>
              }
            >
              <ResponseTimeChart
                points={stats.series}
                range={range}
                end={ready?.readAt ?? 0}
                language={i18n.language}
                labels={{ average: t('monitor.chart.average'), slowest: t('monitor.chart.slowest') }}
                formatMs={(value) => t('monitor.overview.ms', { value })}
              />
            </Suspense>
          ) : (
            <Center h={120}>
              <Text c="dimmed" size="sm">
                {t('monitor.chart.empty')}
              </Text>
            </Center>
          )}
        </>
      )}
    </Card>
  );
}
