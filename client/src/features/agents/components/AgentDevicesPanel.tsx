import { Card, Center, Group, Loader, SegmentedControl, SimpleGrid, Stack, Text } from '@mantine/core';
import { AGENT_METRICS_RANGES, type AgentMetricsRange } from '@vigil/proto';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../api/errors';
import { ErrorState } from '../../../components/PageState/PageState';
import { formatPercent, formatRate } from '../format';
import { useAgentDevices } from '../useAgentInsight';

const AgentDeviceChart = lazy(() => import('./AgentDeviceChart'));

function Waiting() {
  return (
    <Center h={200}>
      <Loader size="sm" />
    </Center>
  );
}

/** Per-disk I/O or per-interface traffic over a chosen range, one chart per device (issue 32). */
export function AgentDevicesPanel({ agentId, kind }: { agentId: number; kind: 'disk' | 'nic' }) {
  const { t, i18n } = useTranslation();
  const [range, setRange] = useState<AgentMetricsRange>('1h');
  const devices = useAgentDevices(agentId, kind, range);
  const shown = devices.value;
  const labels = {
    read: t('agent.insight.devices.read'),
    write: t('agent.insight.devices.write'),
    busy: t('agent.insight.devices.busy'),
    rx: t('agent.insight.devices.rx'),
    tx: t('agent.insight.devices.tx'),
  };

  return (
    <Stack gap="md" data-testid={`agent-devices-${kind}`}>
      <Group justify="space-between">
        <Text fw={600}>{t(`agent.insight.devices.title.${kind}`)}</Text>
        <SegmentedControl
          size="xs"
          value={range}
          onChange={(value) => setRange(value as AgentMetricsRange)}
          data={AGENT_METRICS_RANGES.map((value) => ({ value, label: t(`agent.charts.ranges.${value}`) }))}
          data-testid={`agent-devices-${kind}-range`}
        />
      </Group>
      {devices.status === 'error' && (
        <ErrorState message={errorText(t, devices.error, t('agent.insight.devices.loadError'))} onRetry={devices.reload} />
      )}
      {devices.status === 'loading' && <Waiting />}
      {shown && shown.series.length === 0 && (
        <Text c="dimmed" size="sm" data-testid={`agent-devices-${kind}-empty`}>
          {t('agent.charts.empty')}
        </Text>
      )}
      {shown && shown.series.length > 0 && (
        <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
          {shown.series.map((series) => (
            <Card key={series.name} withBorder radius="md" padding="md" data-testid="agent-device-series">
              <Text size="sm" fw={500} ff="monospace" mb="xs" style={{ overflowWrap: 'anywhere' }}>
                {series.name}
              </Text>
              <Suspense fallback={<Waiting />}>
                <AgentDeviceChart
                  series={series}
                  range={shown.range}
                  end={shown.until}
                  language={i18n.language}
                  labels={labels}
                  formatPercent={formatPercent}
                  formatRate={formatRate}
                />
              </Suspense>
            </Card>
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}
