import { Button, Card, EmptyState, Grid, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import {
  IconActivity,
  IconAlertTriangle,
  IconArrowDownCircle,
  IconArrowUpCircle,
  IconClockHour4,
  IconLinkOff,
  IconPercentage,
  IconPlayerStop,
  IconPlugConnected,
  IconPlus,
  IconRefresh,
  IconServer,
  IconStack2,
} from '@tabler/icons-react';
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
import { AgentCard } from '../../agents/components/AgentCard';
import { selectCanWrite, useAuthStore } from '../../auth/store';
import { useDashboardAgentsStore } from '../../agents/listStore';
import { MonitorCard } from '../../monitors/components/MonitorCard';
import { formatResponseTime, formatUptime, STATUS_COLORS } from '../../monitors/format';
import { useDashboardMonitorsStore } from '../../monitors/listStore';
import { useDashboardStore } from '../store';
import { StatusFeed } from './StatusFeed';

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

function LoadingCard() {
  return (
    <Card withBorder radius="md" padding="lg">
      <LoadingState />
    </Card>
  );
}

/**
 * The dashboard: summary cards (monitors up/down/degraded/unreachable/total, agents online/offline/total, 24 h uptime and response
 * time), the first monitors and agents as cards, and the feed of recent status changes. Live through the
 * `monitors` and `agents` rooms; read every 60 s only while the socket is down.
 */
export function DashboardSections() {
  const { t } = useTranslation();
  // A viewer's empty dashboard offers no "add" button: the forms would refuse to save.
  const canWrite = useAuthStore(selectCanWrite);
  const dashboard = useDashboardStore(
    useShallow((state) => ({ summary: state.summary, status: state.status, error: state.error, load: state.load })),
  );
  const monitors = useDashboardMonitorsStore(
    useShallow((state) => ({ rows: state.rows, status: state.status, error: state.error, load: state.load })),
  );
  const agents = useDashboardAgentsStore(
    useShallow((state) => ({ rows: state.rows, status: state.status, error: state.error, load: state.load })),
  );
  const { load: loadSummary } = dashboard;
  const { load: loadMonitors } = monitors;
  const { load: loadAgents } = agents;

  useEffect(() => {
    void loadSummary();
    void loadMonitors({ page: 1 });
    void loadAgents({ page: 1 });
  }, [loadSummary, loadMonitors, loadAgents]);
  useEffect(() => joinRoom('monitors'), []);
  useEffect(() => joinRoom('agents'), []);
  usePollingFallback(
    useCallback(
      (signal: AbortSignal) => {
        void loadSummary({ quiet: true, signal });
        void loadMonitors({}, { quiet: true });
        void loadAgents({}, { quiet: true });
      },
      [loadSummary, loadMonitors, loadAgents],
    ),
  );

  const failure =
    (dashboard.status === 'error' && errorText(t, dashboard.error, t('dashboard.loadError'))) ||
    (monitors.status === 'error' && errorText(t, monitors.error, t('dashboard.monitors.loadError'))) ||
    (agents.status === 'error' && errorText(t, agents.error, t('dashboard.agents.loadError')));
  const summary = dashboard.status === 'ready' ? dashboard.summary : null;

  const viewAll = (to: string, label: string, testId: string) => (
    <Button component={Link} to={to} variant="subtle" size="compact-sm" data-testid={testId}>
      {label}
    </Button>
  );

  return (
    <Stack gap="lg">
      {failure && <DashboardError message={failure} />}
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="lg">
        {summary ? (
          <>
            <StatusSummaryCard
              title={t('dashboard.monitors.title')}
              action={viewAll(PATHS.monitors, t('dashboard.monitors.viewAll'), 'dashboard-summary-link')}
              testId="dashboard-monitor-summary"
              items={[
                {
                  key: 'up',
                  label: t('dashboard.monitors.summary.up'),
                  value: summary.monitors.up,
                  icon: IconArrowUpCircle,
                  color: 'green',
                },
                {
                  key: 'down',
                  label: t('dashboard.monitors.summary.down'),
                  value: summary.monitors.down,
                  icon: IconArrowDownCircle,
                  color: 'red',
                },
                {
                  key: 'degraded',
                  label: t('dashboard.monitors.summary.degraded'),
                  value: summary.monitors.degraded,
                  icon: IconAlertTriangle,
                  color: STATUS_COLORS.degraded,
                },
                {
                  key: 'unreachable',
                  label: t('dashboard.monitors.summary.unreachable'),
                  value: summary.monitors.unreachable,
                  icon: IconLinkOff,
                  color: STATUS_COLORS.unreachable,
                },
                {
                  key: 'total',
                  label: t('dashboard.monitors.summary.total'),
                  value: summary.monitors.total,
                  icon: IconStack2,
                  color: 'blue',
                },
              ]}
            />
            <StatusSummaryCard
              title={t('dashboard.agents.title')}
              action={viewAll(PATHS.agents, t('dashboard.agents.viewAll'), 'dashboard-agent-summary-link')}
              testId="dashboard-agent-summary"
              items={[
                {
                  key: 'active',
                  label: t('dashboard.agents.summary.active'),
                  value: summary.agents.active,
                  icon: IconPlugConnected,
                  color: 'green',
                },
                {
                  key: 'inactive',
                  label: t('dashboard.agents.summary.inactive'),
                  value: summary.agents.inactive,
                  icon: IconPlayerStop,
                  color: 'red',
                },
                {
                  key: 'unreachable',
                  label: t('dashboard.agents.summary.unreachable'),
                  value: summary.agents.unreachable,
                  icon: IconLinkOff,
                  color: STATUS_COLORS.unreachable,
                },
                { key: 'total', label: t('dashboard.agents.summary.total'), value: summary.agents.total, icon: IconServer, color: 'blue' },
              ]}
            />
            <StatusSummaryCard
              title={t('dashboard.stats.title')}
              testId="dashboard-stats"
              items={[
                {
                  key: 'uptime',
                  label: t('dashboard.stats.uptime'),
                  value: summary.uptime === null ? '-' : t('monitor.overview.percent', { value: formatUptime(summary.uptime) }),
                  icon: IconPercentage,
                  color: 'teal',
                },
                {
                  key: 'response',
                  label: t('dashboard.stats.responseTime'),
                  value:
                    summary.avg_response_time === null
                      ? '-'
                      : t('monitor.overview.ms', { value: formatResponseTime(summary.avg_response_time) }),
                  icon: IconClockHour4,
                  color: 'grape',
                },
              ]}
            />
          </>
        ) : (
          dashboard.status !== 'error' && (
            <>
              <LoadingCard />
              <LoadingCard />
              <LoadingCard />
            </>
          )
        )}
      </SimpleGrid>

      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <Stack gap="lg">
            <Stack gap="sm" data-testid="dashboard-monitors">
              <Group justify="space-between">
                <Text fw={600}>{t('monitors.title')}</Text>
                {viewAll(PATHS.monitors, t('dashboard.monitors.viewAll'), 'dashboard-monitors-link')}
              </Group>
              {(monitors.status === 'idle' || monitors.status === 'loading') && <LoadingState />}
              {monitors.status === 'ready' && monitors.rows.length === 0 && (
                <EmptyState
                  icon={<IconActivity size={28} stroke={1.5} />}
                  variant="light"
                  title={t('dashboard.monitors.empty')}
                  description={t('dashboard.monitors.emptyDescription')}
                >
                  {canWrite && (
                    <EmptyState.Actions>
                      <Button component={Link} to={PATHS.monitorCreate} leftSection={<IconPlus size={16} />} variant="light">
                        {t('dashboard.monitors.add')}
                      </Button>
                    </EmptyState.Actions>
                  )}
                </EmptyState>
              )}
              {monitors.status === 'ready' && monitors.rows.length > 0 && (
                <SimpleGrid cols={{ base: 1, sm: 2, xl: 3 }} spacing="md">
                  {monitors.rows.map((monitor) => (
                    <MonitorCard key={monitor.id} monitor={monitor} testId={`dashboard-monitor-${monitor.id}`} />
                  ))}
                </SimpleGrid>
              )}
            </Stack>

            <Stack gap="sm" data-testid="dashboard-agents">
              <Group justify="space-between">
                <Text fw={600}>{t('agents.title')}</Text>
                {viewAll(PATHS.agents, t('dashboard.agents.viewAll'), 'dashboard-agents-link')}
              </Group>
              {(agents.status === 'idle' || agents.status === 'loading') && <LoadingState />}
              {agents.status === 'ready' && agents.rows.length === 0 && (
                <EmptyState
                  icon={<IconServer size={28} stroke={1.5} />}
                  variant="light"
                  title={t('dashboard.agents.empty')}
                  description={t('dashboard.agents.emptyDescription')}
                >
                  {canWrite && (
                    <EmptyState.Actions>
                      <Button component={Link} to={PATHS.agentCreate} leftSection={<IconPlus size={16} />} variant="light">
                        {t('dashboard.agents.add')}
                      </Button>
                    </EmptyState.Actions>
                  )}
                </EmptyState>
              )}
              {agents.status === 'ready' && agents.rows.length > 0 && (
                <SimpleGrid cols={{ base: 1, sm: 2, xl: 3 }} spacing="md">
                  {agents.rows.map((agent) => (
                    <AgentCard key={agent.id} agent={agent} testId={`dashboard-agent-${agent.id}`} />
                  ))}
                </SimpleGrid>
              )}
            </Stack>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 4 }}>
          {summary ? <StatusFeed changes={summary.recent_changes} /> : dashboard.status !== 'error' && <LoadingCard />}
        </Grid.Col>
      </Grid>
    </Stack>
  );
}
