import { Button, Card, EmptyState, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconActivity, IconArrowDownCircle, IconArrowUpCircle, IconPlus, IconRefresh, IconServer, IconStack2 } from '@tabler/icons-react';
import { useCallback, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useShallow } from 'zustand/react/shallow';
import { errorText } from '../../../api/errors';
import { ErrorState, LoadingState } from '../../../components/PageState/PageState';
import { StatusSummaryCard } from '../../../components/StatusSummaryCard/StatusSummaryCard';
import { joinRoom } from '../../../realtime/socket';
import { usePollingFallback } from '../../../realtime/usePollingFallback';
import { PATHS } from '../../../routes/paths';
import { MonitorCard } from '../../monitors/components/MonitorCard';
import { useDashboardMonitorsStore } from '../../monitors/listStore';

/** The spec's error state: a message and a button that reloads the whole page (section 2, Dashboard). */
function DashboardError({ message }: { message: string }) {
  const { t } = useTranslation();
  return (
    <ErrorState
      message={message}
      action={
        <Button size="xs" variant="light" color="red" leftSection={<IconRefresh size={14} />} onClick={() => window.location.reload()}>
          {t('dashboard.monitors.reload')}
        </Button>
      }
    />
  );
}

/** Agents arrive with a later issue; until then their section is an empty state pointing to where one is added. */
function AgentsPlaceholder() {
  const { t } = useTranslation();
  return (
    <Card withBorder radius="md" padding="lg" data-testid="dashboard-agents">
      <Group justify="space-between" mb="md">
        <Text fw={600}>{t('dashboard.agents.title')}</Text>
        <Button component={Link} to={PATHS.agents} variant="subtle" size="compact-sm">
          {t('dashboard.agents.viewAll')}
        </Button>
      </Group>
      <EmptyState icon={<IconServer size={28} stroke={1.5} />} variant="light" title={t('dashboard.agents.empty')} description={t('dashboard.agents.emptyDescription')}>
        <EmptyState.Actions>
          <Button component={Link} to={PATHS.agentCreate} leftSection={<IconPlus size={16} />} variant="light">
            {t('dashboard.agents.add')}
          </Button>
        </EmptyState.Actions>
      </EmptyState>
    </Card>
  );
}

/**
 * The dashboard: the monitor summary card (up, down, total) and the first monitors as cards, live through the
 * `monitors` room, next to the agents section.
 */
export function DashboardSections() {
  const { t } = useTranslation();
  const { monitors, counts, status, error, load } = useDashboardMonitorsStore(
    useShallow((state) => ({ monitors: state.monitors, counts: state.counts, status: state.status, error: state.error, load: state.load })),
  );

  useEffect(() => {
    void load({ page: 1 });
  }, [load]);
  useEffect(() => joinRoom('monitors'), []);
  usePollingFallback(useCallback(() => void load({}, { quiet: true }), [load]));

  const viewAll = (testId: string) => (
    <Button component={Link} to={PATHS.monitors} variant="subtle" size="compact-sm" data-testid={testId}>
      {t('dashboard.monitors.viewAll')}
    </Button>
  );

  return (
    <Stack gap="lg">
      {status === 'error' && <DashboardError message={errorText(t, error, t('dashboard.monitors.loadError'))} />}
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        {status === 'ready' ? (
          <StatusSummaryCard
            title={t('dashboard.monitors.title')}
            action={viewAll('dashboard-summary-link')}
            testId="dashboard-monitor-summary"
            items={[
              { key: 'up', label: t('dashboard.monitors.summary.up'), value: counts.up, icon: IconArrowUpCircle, color: 'green' },
              { key: 'down', label: t('dashboard.monitors.summary.down'), value: counts.down, icon: IconArrowDownCircle, color: 'red' },
              { key: 'total', label: t('dashboard.monitors.summary.total'), value: counts.total, icon: IconStack2, color: 'blue' },
            ]}
          />
        ) : (
          <Card withBorder radius="md" padding="lg">
            {status !== 'error' && <LoadingState />}
          </Card>
        )}
        <AgentsPlaceholder />
      </SimpleGrid>

      {status === 'ready' && (
        <Stack gap="sm" data-testid="dashboard-monitors">
          <Group justify="space-between">
            <Text fw={600}>{t('monitors.title')}</Text>
            {viewAll('dashboard-monitors-link')}
          </Group>
          {monitors.length === 0 ? (
            <EmptyState icon={<IconActivity size={28} stroke={1.5} />} variant="light" title={t('dashboard.monitors.empty')} description={t('dashboard.monitors.emptyDescription')}>
              <EmptyState.Actions>
                <Button component={Link} to={PATHS.monitorCreate} leftSection={<IconPlus size={16} />} variant="light">
                  {t('dashboard.monitors.add')}
                </Button>
              </EmptyState.Actions>
            </EmptyState>
          ) : (
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
              {monitors.map((monitor) => (
                <MonitorCard key={monitor.id} monitor={monitor} testId={`dashboard-monitor-${monitor.id}`} />
              ))}
            </SimpleGrid>
          )}
        </Stack>
      )}
    </Stack>
  );
}
