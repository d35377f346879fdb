import { Badge, Group, Pagination, Paper, Stack, Switch, Text } from '@mantine/core';
import { readableTarget } from '@vigil/proto';
import { memo, useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../api/errors';
import { SearchInput } from '../../../components/ListControls/ListControls';
import { ErrorState, LoadingState } from '../../../components/PageState/PageState';
import { agentsApi } from '../../agents/api';
import { selectCanWrite, useAuthStore } from '../../auth/store';
import { monitorsApi } from '../../monitors/api';
import { entryFrom, type AgentEntry, type MonitorEntry, type TargetKind } from '../settings';
import { useNotificationsStore } from '../store';
import { usePagedRead } from '../usePagedRead';
import { AgentOptions } from './AgentOptions';
import { MonitorOptions } from './MonitorOptions';

/** Targets per page: the list is paged and searched on the server, so 10,000 monitors never travel at once. */
export const TARGETS_PAGE_SIZE = 20;

interface Target {
  id: number;
  name: string;
  /** URL of a monitor, hostname of an agent. */
  detail: string;
}

async function readTargets(
  kind: TargetKind,
  page: number,
  search: string,
  /** How a push monitor's target reads (it has none but the heartbeat). */
  heartbeat: string,
  signal: AbortSignal,
): Promise<{ items: Target[]; total: number }> {
  if (kind === 'monitors') {
    const answer = await monitorsApi.list({ page, pageSize: TARGETS_PAGE_SIZE, filter: 'all', type: 'all', search }, signal);
    const items = answer.monitors.map((monitor) => ({ id: monitor.id, name: monitor.name, detail: readableTarget(monitor) ?? heartbeat }));
    return { items, total: answer.total };
  }
  const answer = await agentsApi.list({ page, pageSize: TARGETS_PAGE_SIZE, status: 'all', search }, signal);
  return { items: answer.agents.map((agent) => ({ id: agent.id, name: agent.name, detail: agent.hostname ?? '' })), total: answer.total };
}

/** One target: its override switch, then (while overriding) whether it notifies at all, then what and where. */
const TargetRow = memo(function TargetRow({ kind, target }: { kind: TargetKind; target: Target }) {
  const { t } = useTranslation();
  const channels = useNotificationsStore((state) => state.channels);
  const globalSettings = useNotificationsStore((state) => (kind === 'monitors' ? state.monitors : state.agents));
  const stored = useNotificationsStore((state) =>
    kind === 'monitors' ? state.specificMonitors[target.id] : state.specificAgents[target.id],
  );
  const setMonitorEntry = useNotificationsStore((state) => state.setMonitorEntry);
  const setAgentEntry = useNotificationsStore((state) => state.setAgentEntry);
  // A viewer sees each target's settings but cannot change them.
  const canWrite = useAuthStore(selectCanWrite);
  // The kind decides which of the two the entry is; TypeScript cannot follow that through the selectors.
  const entry: MonitorEntry | AgentEntry = stored ?? entryFrom(globalSettings);
  const testId = `target-${kind}-${target.id}`;
  const change = (patch: Record<string, unknown>) =>
    kind === 'monitors' ? setMonitorEntry(target.id, patch) : setAgentEntry(target.id, patch);

  return (
    <Paper withBorder radius="md" p="md" data-testid={testId}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap" gap="sm">
          <div style={{ minWidth: 0 }}>
            <Text fw={500} style={{ overflowWrap: 'anywhere' }}>
              {target.name}
            </Text>
            {target.detail && (
              <Text size="xs" c="dimmed" truncate>
                {target.detail}
              </Text>
            )}
          </div>
          <Group gap="sm" wrap="nowrap">
            <Badge variant="light" color={entry.overrideGlobal ? 'blue' : 'gray'}>
              {entry.overrideGlobal ? t('notifications.targets.own') : t('notifications.targets.followsGlobal')}
            </Badge>
            <Switch
              label={t('notifications.settings.override')}
              checked={entry.overrideGlobal}
              disabled={!canWrite}
              onChange={(event) => change({ overrideGlobal: event.currentTarget.checked })}
              data-testid={`${testId}-override`}
            />
          </Group>
        </Group>
        {entry.overrideGlobal && (
          <Stack gap="sm" pl="md">
            <Switch
              label={t('notifications.settings.enabled')}
              checked={entry.enabled}
              disabled={!canWrite}
              onChange={(event) => change({ enabled: event.currentTarget.checked })}
              data-testid={`${testId}-enabled`}
            />
            {entry.enabled &&
              (kind === 'monitors' ? (
                <MonitorOptions value={entry as MonitorEntry} channels={channels} onChange={change} testId={testId} />
              ) : (
                <AgentOptions value={entry as AgentEntry} channels={channels} onChange={change} testId={testId} />
              ))}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
});

/** Per-monitor or per-agent settings: a searched, paged list where each target may override the global settings. */
export function TargetsPanel({ kind }: { kind: TargetKind }) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const overriding = useNotificationsStore(
    (store) =>
      Object.values(kind === 'monitors' ? store.specificMonitors : store.specificAgents).filter((entry) => entry.overrideGlobal).length,
  );
  const heartbeat = t('monitor.target.heartbeat');
  const state = usePagedRead(
    useCallback((signal: AbortSignal) => readTargets(kind, page, search, heartbeat, signal), [kind, page, search, heartbeat]),
  );

  const pages = Math.max(1, Math.ceil(state.total / TARGETS_PAGE_SIZE));
  return (
    <Stack gap="md" data-testid={`targets-${kind}`}>
      <Group justify="space-between">
        <SearchInput
          search={search}
          onSearch={(next) => {
            setSearch(next);
            setPage(1);
          }}
          label={t(`notifications.targets.search.${kind}`)}
          testId={`targets-${kind}-search`}
        />
        <Text size="sm" c="dimmed" data-testid={`targets-${kind}-overriding`}>
          {t('notifications.targets.overriding', { count: overriding })}
        </Text>
      </Group>
      <Text size="sm" c="dimmed">
        {t('notifications.targets.hint')}
      </Text>
      {state.status === 'error' && <ErrorState message={errorText(t, state.error, t('common.error.fetch'))} onRetry={state.retry} />}
      {state.status === 'loading' && state.items.length === 0 && <LoadingState />}
      {state.status !== 'error' && state.items.length === 0 && state.status === 'ready' && (
        <Text c="dimmed" py="md" data-testid={`targets-${kind}-empty`}>
          {search ? t('notifications.targets.noMatch') : t(`notifications.targets.empty.${kind}`)}
        </Text>
      )}
      {state.items.map((target) => (
        <TargetRow key={target.id} kind={kind} target={target} />
      ))}
      {pages > 1 && <Pagination total={pages} value={page} onChange={setPage} size="sm" data-testid={`targets-${kind}-pages`} />}
    </Stack>
  );
}
