import { Card, Center, Group, Loader, SegmentedControl, Text } from '@mantine/core';
import { AGENT_METRICS_RANGES, type AgentMetricsRange } from '@vigil/proto';
import { lazy, Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useShallow } from 'zustand/react/shallow';
import { errorText } from '../../../api/errors';
import { ErrorState } from '../../../components/PageState/PageState';
import { useAgentDetailStore } from '../detailStore';
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
 * longer ranges are re-read once one of their buckets has filled (the store decides both as reports arrive).
 */
export function AgentChartsPanel() {
  const { t, i18n } = useTranslation();
  const { metrics, loadMetrics } = useAgentDetailStore(useShallow((state) => ({ metrics: state.metrics, loadMetrics: state.loadMetrics })));
  const { range, status } = metrics;

  // Opening the tab reads the range last shown.
  useEffect(() => {
    void loadMetrics();
  }, [loadMetrics]);

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
            end={metrics.until}
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
