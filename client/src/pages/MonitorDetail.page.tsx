import { Stack, Tabs } from '@mantine/core';
import { IconChartLine, IconHistory, IconSettings } from '@tabler/icons-react';
import type { CheckDto, MonitorDto } from '@vigil/proto';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { useShallow } from 'zustand/react/shallow';
import { errorText } from '../api/errors';
import { notify } from '../app/notify';
import { ErrorState, LoadingState } from '../components/PageState/PageState';
import { TargetAlerts } from '../features/alerts/components/TargetAlerts';
import { DependencyChain } from '../features/dependencies/DependencyChain';
import { ExportPanel } from '../features/exports/components/ExportPanel';
import { MonitorMaintenance } from '../features/maintenance/components/MonitorMaintenance';
import { monitorsApi } from '../features/monitors/api';
import { ChecksHistory } from '../features/monitors/components/ChecksHistory';
import { DeleteMonitorModal } from '../features/monitors/components/DeleteMonitorModal';
import { FailureScreenshot } from '../features/monitors/components/FailureScreenshot';
import { MissingMonitor } from '../features/monitors/components/MissingMonitor';
import { type MonitorAction, MonitorDetailHeader } from '../features/monitors/components/MonitorDetailHeader';
import { MonitorOverview } from '../features/monitors/components/MonitorOverview';
import { ManualStatusControl } from '../features/monitors/components/ManualStatusControl';
import { MonitorLocationsCard } from '../features/monitors/components/MonitorLocationsCard';
import { MonitorHostCard } from '../features/monitors/components/MonitorHostCard';
import { MonitorSettings } from '../features/monitors/components/MonitorSettings';
import { GroupMembers } from '../features/monitors/components/GroupMembers';
import { selectCanWrite, useAuthStore } from '../features/auth/store';
import { useMonitorDetailStore } from '../features/monitors/detailStore';
import { formatResponseTime } from '../features/monitors/format';
import { hasLocations } from '../features/monitors/locations';
import { joinRoom } from '../realtime/socket';
import { usePollingFallback } from '../realtime/usePollingFallback';
import { parseIdParam, PATHS } from '../routes/paths';

/** Pause between a successful delete and the move to the list, so its toast is read (spec section 9). */
export const DELETE_REDIRECT_MS = 1500;

const TABS = ['overview', 'history', 'settings'] as const;
type Tab = (typeof TABS)[number];

export default function MonitorDetailPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const id = parseIdParam(useParams().id);
  const [searchParams, setSearchParams] = useSearchParams();
  const tab: Tab = TABS.find((name) => name === searchParams.get('tab')) ?? 'overview';
  const { storeId, monitor, status, error, removed, load, applyResponse, applyCheckResult } = useMonitorDetailStore(
    useShallow((state) => ({
      storeId: state.id,
      monitor: state.monitor,
      status: state.status,
      error: state.error,
      removed: state.removed,
      load: state.load,
      applyResponse: state.applyResponse,
      applyCheckResult: state.applyCheckResult,
    })),
  );
  // Who may edit a monitor may set a manual one's status.
  const canWrite = useAuthStore(selectCanWrite);
  const [busy, setBusy] = useState<MonitorAction | null>(null);
  const [confirming, setConfirming] = useState<MonitorDto | null>(null);
  const [redirecting, setRedirecting] = useState(false);
  const redirectTimer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(() => {
    if (id !== null) void load(id);
  }, [id, load]);
  useEffect(() => (id === null ? undefined : joinRoom(`monitor:${id}`)), [id]);
  useEffect(
    () => () => {
      if (redirectTimer.current) clearTimeout(redirectTimer.current);
    },
    [],
  );
  usePollingFallback(
    useCallback(() => {
      if (id !== null) void load(id, { quiet: true });
    }, [id, load]),
  );

  if (id === null || status === 'missing' || (removed && !redirecting)) return <MissingMonitor />;
  if (storeId !== id || !monitor || status === 'loading' || status === 'idle') {
    if (status === 'error') return <ErrorState message={errorText(t, error, t('monitor.loadError'))} onRetry={() => void load(id)} />;
    return <LoadingState />;
  }
  const shown = monitor;

  function checkSummary(check: CheckDto): string {
    const statusText = t(`monitor.status.${check.status}`);
    return check.error
      ? t('monitor.checkResultError', { status: statusText, error: check.error })
      : t('monitor.checkResult', { status: statusText, time: formatResponseTime(check.response_time) });
  }

  async function run(action: MonitorAction) {
    if (action === 'delete') {
      setConfirming(shown);
      return;
    }
    setBusy(action);
    try {
      if (action === 'check') {
        const result = await monitorsApi.check(shown.id);
        applyCheckResult(result);
        notify.success(checkSummary(result.check), t('monitor.checkCompleted'));
      } else {
        const response = action === 'pause' ? await monitorsApi.pause(shown.id) : await monitorsApi.resume(shown.id);
        applyResponse(response.monitor);
        notify.success(t(action === 'pause' ? 'monitor.paused' : 'monitor.resumed'));
      }
    } catch (failure) {
      const title = t(action === 'check' ? 'monitor.checkFailed' : action === 'pause' ? 'monitor.pauseFailed' : 'monitor.resumeFailed');
      notify.error(errorText(t, failure, title), title);
    } finally {
      setBusy(null);
    }
  }

  async function remove(target: MonitorDto) {
    setConfirming(null);
    setBusy('delete');
    try {
      await monitorsApi.remove(target.id);
      setRedirecting(true);
      notify.success(t('monitor.deleted'));
      redirectTimer.current = setTimeout(() => navigate(PATHS.monitors), DELETE_REDIRECT_MS);
    } catch (failure) {
      notify.error(errorText(t, failure, t('monitor.deleteFailed')), t('monitor.deleteFailed'));
    } finally {
      setBusy(null);
    }
  }

  return (
    <Stack gap="lg">
      <MonitorDetailHeader monitor={shown} busy={busy} disabled={redirecting} onAction={(action) => void run(action)} />
      <MonitorMaintenance monitorId={shown.id} status={shown.status} />
      <TargetAlerts kind="monitor" id={shown.id} />
      {shown.type === 'group' && <GroupMembers group={shown} />}
      {shown.type === 'manual' && canWrite && !redirecting && <ManualStatusControl monitor={shown} onSet={applyCheckResult} />}
      <Tabs
        value={tab}
        onChange={(next) => setSearchParams(next && next !== 'overview' ? { tab: next } : {}, { replace: true })}
        keepMounted={false}
      >
        <Tabs.List mb="md">
          <Tabs.Tab value="overview" leftSection={<IconChartLine size={16} />} data-testid="monitor-tab-overview">
            {t('monitor.tabs.overview')}
          </Tabs.Tab>
          <Tabs.Tab value="history" leftSection={<IconHistory size={16} />} data-testid="monitor-tab-history">
            {t('monitor.tabs.history')}
          </Tabs.Tab>
          <Tabs.Tab value="settings" leftSection={<IconSettings size={16} />} data-testid="monitor-tab-settings">
            {t('monitor.tabs.settings')}
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="overview">
          <Stack gap="lg">
            {hasLocations(shown) && <MonitorLocationsCard monitor={shown} />}
            {shown.host_agent_id !== null && <MonitorHostCard monitor={shown} />}
            <MonitorOverview monitor={shown} />
            {shown.type === 'browser' && <FailureScreenshot monitor={shown} />}
            <DependencyChain target={{ type: 'monitor', id: shown.id }} version={`${shown.status}|${JSON.stringify(shown.depends_on)}`} />
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="history">
          <Stack gap="lg">
            <ChecksHistory />
            <ExportPanel kind="monitor" id={shown.id} />
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="settings">
          <MonitorSettings monitor={shown} />
        </Tabs.Panel>
      </Tabs>
      <DeleteMonitorModal monitor={confirming} onClose={() => setConfirming(null)} onConfirm={remove} />
    </Stack>
  );
}
