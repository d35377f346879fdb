import { Card, Center, Group, Loader, SegmentedControl, Text } from '@mantine/core';
import { AGENT_METRICS_RANGES, type AgentMetricsRange } from '@vigil/proto';
import { lazy, Suspense, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useShallow } from 'zustand/react/shallow';
import { errorText } from '../../../api/errors';
import { ErrorState } from '../../../components/PageState/PageState';
import { LIVE_RANGE, useAgentDetailStore } from '../detailStore';
import { formatPercent, formatRate } from '../format';

const AgentMetricsChart = lazy(() => import('./AgentMetricsChart'));

function Waiting({ height }: { height: number }) {
  return (
    <Center h={height}>
      <Loader size="sm" />
    </Center>
  );
}

/**
 * The charts tab: CPU, memory, disk and network over 1 h, 24 h, 7 d or 30 d. The hour grows with every pushed report;
 * longer ranges are re-read once one of their buckets has filled.
 */
export function AgentChartsPanel({ lastReport }: { lastReport: string }) {
  const { t, i18n } = useTranslation();
  const { metrics, loadMetrics } = useAgentDetailStore(useShallow((state) => ({ metrics: state.metrics, loadMetrics: state.loadMetrics })));
  const { range, step, status } = metrics;
  // Which bucket the last report fell in: a new one means a longer range has a new point to show.
  const bucket = range === LIVE_RANGE ? 0 : Math.floor(Date.parse(lastReport) / (step * 1000));

  useEffect(() => {
    void loadMetrics(range);
    // The range is read from the store once; changes go through `changeRange`.
  }, [loadMetrics]);

  const seenBucket = useRef(bucket);
  useEffect(() => {
    if (bucket === seenBucket.current) return;
    seenBucket.current = bucket;
    if (bucket > 0 && status === 'ready') void loadMetrics(range, { quiet: true });
  }, [bucket]);

  return (
    <Card withBorder radius="md" padding="lg" data-testid="agent-charts">
      <Group justify="space-between" mb="md">
        <Text fw={600}>{t('agent.tabs.charts')}</Text>
        <SegmentedControl
          size="xs"
          value={range}
          onChange={(value) => void loadMetrics(value as AgentMetricsRange)}
          data={AGENT_METRICS_RANGES.map((value) => ({ value, label: t(`agent.charts.ranges.${value}`) }))}
          data-testid="agent-charts-range"
        />
      </Group>
      {status === 'error' && (
        <ErrorState message={errorText(t, metrics.error, t('agent.charts.loadError'))} onRetry={() => void loadMetrics(range)} />
      )}
      {(status === 'loading' || status === 'idle') && <Waiting height={460} />}
      {status === 'ready' && metrics.points.length === 0 && (
        <Center h={120}>
          <Text c="dimmed" size="sm" data-testid="agent-charts-empty">
            {t('agent.charts.empty')}
          </Text>
        </Center>
      )}
      {status === 'ready' && metrics.points.length > 0 && (
        <Suspense fallback={<Waiting height={460} />}>
          <AgentMetricsChart
            points={metrics.points}
            range={range}
            language={i18n.language}
            labels={{
              usage: t('agent.charts.usage'),
              network: t('agent.charts.network'),
              cpu: t('agent.charts.cpu'),
              memory: t('agent.charts.memory'),
              disk: t('agent.charts.disk'),
              rx: t('agent.charts.rx'),
              tx: t('agent.charts.tx'),
            }}
            formatPercent={formatPercent}
            formatRate={formatRate}
          />
        </Suspense>
      )}
    </Card>
  );
}
