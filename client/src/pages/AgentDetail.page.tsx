import { Stack, Tabs } from '@mantine/core';
import { IconBox, IconChartLine, IconCpu, IconNetwork, IconServer2, IconTemperature, IconDeviceFloppy } from '@tabler/icons-react';
import type { AgentDto } from '@vigil/proto';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { useShallow } from 'zustand/react/shallow';
import { errorText } from '../api/errors';
import { notify } from '../app/notify';
import { ErrorState, LoadingState } from '../components/PageState/PageState';
import { agentsApi } from '../features/agents/api';
import { TargetAlerts } from '../features/alerts/components/TargetAlerts';
import { DependencyChain } from '../features/dependencies/DependencyChain';
import { ExportPanel } from '../features/exports/components/ExportPanel';
import { AgentChartsPanel } from '../features/agents/components/AgentChartsPanel';
import { AgentContainersPanel } from '../features/agents/components/AgentContainersPanel';
import { AgentDevicesPanel } from '../features/agents/components/AgentDevicesPanel';
import { AgentSensorsPanel } from '../features/agents/components/AgentSensorsPanel';
import { AgentServicesPanel } from '../features/agents/components/AgentServicesPanel';
import { InsightGate, InsightNotice } from '../features/agents/components/InsightGate';
import { AgentDetailHeader } from '../features/agents/components/AgentDetailHeader';
import { AgentSystemTab } from '../features/agents/components/AgentSystemTab';
import { DeleteAgentModal } from '../features/agents/components/DeleteAgentModal';
import { MissingAgent } from '../features/agents/components/MissingAgent';
import { useAgentDetailStore } from '../features/agents/detailStore';
import { useAgentInsight } from '../features/agents/useAgentInsight';
import { joinRoom } from '../realtime/socket';
import { usePollingFallback } from '../realtime/usePollingFallback';
import { parseIdParam, PATHS } from '../routes/paths';

/** Pause between a successful delete and the move to the list, so its toast is read (spec section 9). */
export const AGENT_DELETE_REDIRECT_MS = 3000;

const TABS = ['system', 'charts', 'containers', 'sensors', 'disks', 'network', 'services'] as const;
type Tab = (typeof TABS)[number];
/** Tabs that show the host's newest protocol 2 figures, read while one of them is open. */
const INSIGHT_TABS: readonly Tab[] = ['containers', 'sensors', 'disks', 'services'];
const TAB_ICONS = {
  system: IconCpu,
  charts: IconChartLine,
  containers: IconBox,
  sensors: IconTemperature,
  disks: IconDeviceFloppy,
  network: IconNetwork,
  services: IconServer2,
} as const;

export default function AgentDetailPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const rawId = useParams().id ?? '';
  const id = parseIdParam(rawId);
  const [searchParams, setSearchParams] = useSearchParams();
  const tab: Tab = TABS.find((name) => name === searchParams.get('tab')) ?? 'system';
  const { storeId, agent, status, error, removed, metricsStatus, metricsRange, load, loadMetrics } = useAgentDetailStore(
    useShallow((state) => ({
      storeId: state.id,
      agent: state.agent,
      status: state.status,
      error: state.error,
      removed: state.removed,
      metricsStatus: state.metrics.status,
      metricsRange: state.metrics.range,
      load: state.load,
      loadMetrics: state.loadMetrics,
    })),
  );
  const [refreshing, setRefreshing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [confirming, setConfirming] = useState<AgentDto | null>(null);
  const [redirecting, setRedirecting] = useState(false);
  const redirectTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  // Every push of this agent's report moves the cached row's `updated_at`: the open insight tab re-reads on it.
  const insight = useAgentInsight(id ?? 0, agent?.updated_at ?? '', id !== null && INSIGHT_TABS.includes(tab));

  useEffect(() => {
    if (id !== null) void load(id);
  }, [id, load]);
  useEffect(() => (id === null ? undefined : joinRoom(`agent:${id}`)), [id]);
  useEffect(
    () => () => {
      if (redirectTimer.current) clearTimeout(redirectTimer.current);
    },
    [],
  );

  const refresh = useCallback(async () => {
    if (id === null) return;
    // The charts re-read too once they have been opened; reports missed meanwhile fill in.
    await Promise.all([load(id, { quiet: true }), metricsStatus === 'idle' ? null : loadMetrics(metricsRange, { quiet: true })]);
  }, [id, load, loadMetrics, metricsStatus, metricsRange]);
  usePollingFallback(useCallback(() => void refresh(), [refresh]));

  // Deleted elsewhere: not found. Deleted here: the push may beat the answer, so the page stays until the redirect.
  if (id === null || status === 'missing' || (removed && !redirecting && !deleting)) return <MissingAgent id={rawId} />;
  if (storeId !== id || !agent || status === 'loading' || status === 'idle') {
    if (status === 'error') return <ErrorState message={errorText(t, error, t('agent.loadError'))} onRetry={() => void load(id)} />;
    return <LoadingState />;
  }
  const shown = agent;

  async function manualRefresh() {
    setRefreshing(true);
    await refresh();
    setRefreshing(false);
  }

  async function remove(target: AgentDto) {
    setConfirming(null);
    setDeleting(true);
    try {
      await agentsApi.remove(target.id);
      setRedirecting(true);
      notify.success(t('agent.deleted'));
      redirectTimer.current = setTimeout(() => navigate(PATHS.agents), AGENT_DELETE_REDIRECT_MS);
    } catch (failure) {
      notify.error(errorText(t, failure, t('agent.deleteError')), t('agent.deleteError'));
    } finally {
      setDeleting(false);
    }
  }

  return (
    <Stack gap="lg" data-testid="agent-detail">
      <AgentDetailHeader
        agent={shown}
        refreshing={refreshing}
        locked={deleting || redirecting}
        onRefresh={() => void manualRefresh()}
        onDelete={() => setConfirming(shown)}
      />
      <TargetAlerts kind="agent" id={shown.id} />
      <Tabs
        value={tab}
        onChange={(next) => setSearchParams(next && next !== 'system' ? { tab: next } : {}, { replace: true })}
        keepMounted={false}
      >
        <Tabs.List mb="md">
          {TABS.map((name) => {
            const Icon = TAB_ICONS[name];
            return (
              <Tabs.Tab key={name} value={name} leftSection={<Icon size={16} />} data-testid={`agent-tab-${name}`}>
                {t(`agent.tabs.${name}`)}
              </Tabs.Tab>
            );
          })}
        </Tabs.List>
        <Tabs.Panel value="system">
          <Stack gap="lg">
            <AgentSystemTab agent={shown} />
            <DependencyChain
              target={{ type: 'agent', id: shown.id }}
              version={`${shown.status}|${shown.unreachable}|${JSON.stringify(shown.depends_on)}`}
            />
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="charts">
          <Stack gap="lg">
            <AgentChartsPanel />
            <ExportPanel kind="agent" id={shown.id} />
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="containers">
          <InsightGate insight={insight}>{(value) => <AgentContainersPanel containers={value.containers} />}</InsightGate>
        </Tabs.Panel>
        <Tabs.Panel value="sensors">
          <InsightGate insight={insight}>{(value) => <AgentSensorsPanel sensors={value.sensors} />}</InsightGate>
        </Tabs.Panel>
        <Tabs.Panel value="disks">
          <InsightGate insight={insight}>
            {(value) =>
              value.disk_io === null ? (
                <InsightNotice testId="agent-disk-io-none">{t('agent.insight.devices.noDiskIo')}</InsightNotice>
              ) : (
                <AgentDevicesPanel agentId={shown.id} kind="disk" />
              )
            }
          </InsightGate>
        </Tabs.Panel>
        <Tabs.Panel value="network">
          <AgentDevicesPanel agentId={shown.id} kind="nic" />
        </Tabs.Panel>
        <Tabs.Panel value="services">
          <InsightGate insight={insight}>{(value) => <AgentServicesPanel services={value.services} />}</InsightGate>
        </Tabs.Panel>
      </Tabs>
      <DeleteAgentModal agent={confirming} onClose={() => setConfirming(null)} onConfirm={remove} />
    </Stack>
  );
}
