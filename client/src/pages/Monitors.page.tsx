import { Button, EmptyState, Group, Pagination, SimpleGrid, Stack, Switch, Text, Title } from '@mantine/core';
import { IconActivity, IconPlus, IconRefresh, IconSearch } from '@tabler/icons-react';
import type { MonitorDto } from '@vigil/proto';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { useShallow } from 'zustand/react/shallow';
import { errorText } from '../api/errors';
import { notify } from '../app/notify';
import { LiveBadge } from '../components/LiveBadge/LiveBadge';
import { ErrorState, LoadingState } from '../components/PageState/PageState';
import { selectCanWrite, useAuthStore } from '../features/auth/store';
import { DeleteMonitorModal } from '../features/monitors/components/DeleteMonitorModal';
import { GroupedMonitorList } from '../features/monitors/components/GroupedMonitorList';
import { MonitorCard } from '../features/monitors/components/MonitorCard';
import { MonitorListToolbar } from '../features/monitors/components/MonitorListToolbar';
import { MonitorTable } from '../features/monitors/components/MonitorTable';
import { MONITORS_PAGE_SIZE, useMonitorsStore } from '../features/monitors/listStore';
import { useGroupedView } from '../features/monitors/useGroupedView';
import { useMonitorView } from '../features/monitors/useMonitorView';
import { joinRoom } from '../realtime/socket';
import { usePollingFallback } from '../realtime/usePollingFallback';
import { PATHS } from '../routes/paths';

export default function MonitorsPage() {
  const { t } = useTranslation();
  const { monitors, total, counts, query, status, error, fetching, load, remove } = useMonitorsStore(
    useShallow((state) => ({
      monitors: state.rows,
      fetching: state.fetching,
      total: state.total,
      counts: state.counts,
      query: state.query,
      status: state.status,
      error: state.error,
      load: state.load,
      remove: state.remove,
    })),
  );
  const [view, setView] = useMonitorView();
  const [grouped, setGrouped] = useGroupedView();
  // Bumped by every refresh, so the grouped view reads its open levels again too.
  const [groupedVersion, setGroupedVersion] = useState(0);
  const [pendingDelete, setPendingDelete] = useState<MonitorDto | null>(null);
  const [refreshing, setRefreshing] = useState(false);

  // The tag filter lives in the address (`?tag=`), so a tag badge anywhere links to its list.
  const [params, setParams] = useSearchParams();
  const tag = params.get('tag') ?? '';
  useEffect(() => {
    // Back on the list with the same tag, the page it was on stays.
    void load((useMonitorsStore.getState().query.tag ?? '') === tag ? {} : { tag, page: 1 });
  }, [load, tag]);
  useEffect(() => joinRoom('monitors'), []);
  usePollingFallback(useCallback(() => void load({}, { quiet: true }), [load]));

  async function refresh() {
    setRefreshing(true);
    await load({}, { quiet: status === 'ready' });
    setGroupedVersion((version) => version + 1);
    setRefreshing(false);
  }

  async function deleteMonitor(monitor: MonitorDto) {
    await remove(monitor.id);
    notify.success(t('monitors.delete.success'));
    setPendingDelete(null);
  }

  const pages = Math.max(1, Math.ceil(total / MONITORS_PAGE_SIZE));
  const unfiltered =
    query.filter === 'all' && query.type === 'all' && (query.status ?? 'all') === 'all' && query.search.trim() === '' && !query.tag;
  // A viewer reads only: no create button.
  const canWrite = useAuthStore(selectCanWrite);
  const createButton = (testId: string) =>
    canWrite && (
      <Button component={Link} to={PATHS.monitorCreate} leftSection={<IconPlus size={16} />} data-testid={testId}>
        {t('monitors.create')}
      </Button>
    );

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-start">
        <div>
          <Group gap="sm">
            <Title order={2}>{t('monitors.title')}</Title>
            <LiveBadge />
          </Group>
          <Text c="dimmed" mt={4}>
            {t('monitors.subtitle')}
          </Text>
        </div>
        <Group gap="sm">
          <Switch
            label={t('monitors.grouped.toggle')}
            checked={grouped}
            onChange={(event) => setGrouped(event.currentTarget.checked)}
            data-testid="monitors-grouped-toggle"
          />
          <Button
            variant="default"
            leftSection={<IconRefresh size={16} />}
            loading={refreshing}
            onClick={() => void refresh()}
            data-testid="monitors-refresh"
          >
            {t('monitors.refresh')}
          </Button>
          {createButton('monitor-create')}
        </Group>
      </Group>

      <MonitorListToolbar
        filter={query.filter}
        type={query.type}
        status={query.status ?? 'all'}
        search={query.search}
        tag={tag}
        counts={counts}
        view={view}
        onFilter={(filter) => void load({ filter, page: 1 }, { keepRows: true })}
        onType={(type) => void load({ type, page: 1 }, { keepRows: true })}
        onStatus={(status) => void load({ status, page: 1 }, { keepRows: true })}
        onSearch={(search) => void load({ search, page: 1 }, { keepRows: true })}
        onTag={(next) => setParams(next ? { tag: next } : {})}
        onView={setView}
      />

      {status === 'error' && <ErrorState message={errorText(t, error, t('monitors.loadingError'))} onRetry={() => void load()} />}
      {(status === 'loading' || status === 'idle') && <LoadingState />}
      {status === 'ready' && monitors.length === 0 && unfiltered && (
        <EmptyState
          icon={<IconActivity size={28} />}
          variant="light"
          title={t('monitors.empty')}
          description={t('monitors.emptyDescription')}
          data-testid="monitors-empty"
        >
          <EmptyState.Actions>{createButton('monitors-empty-create')}</EmptyState.Actions>
        </EmptyState>
      )}
      {status === 'ready' && monitors.length === 0 && !unfiltered && (
        <EmptyState
          icon={<IconSearch size={28} />}
          variant="light"
          title={t('monitors.noMatch')}
          description={t('monitors.noMatchDescription')}
          data-testid="monitors-no-match"
        />
      )}
      {grouped && status === 'ready' && monitors.length > 0 && <GroupedMonitorList refreshKey={groupedVersion} filters={query} />}
      {!grouped && status === 'ready' && monitors.length > 0 && (
        // The rows of the previous page or filter stay, dimmed, until the next ones arrive.
        <Stack gap="sm" style={{ opacity: fetching && !refreshing ? 0.6 : 1, transition: 'opacity 150ms' }} aria-busy={fetching}>
          {view === 'list' ? (
            <MonitorTable monitors={monitors} onDelete={setPendingDelete} />
          ) : (
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" data-testid="monitors-grid">
              {monitors.map((monitor) => (
                <MonitorCard key={monitor.id} monitor={monitor} testId={`monitor-row-${monitor.id}`} onDelete={setPendingDelete} />
              ))}
            </SimpleGrid>
          )}
          <Group justify="space-between">
            <Text size="sm" c="dimmed" data-testid="monitors-total">
              {t('monitors.total', { total })}
            </Text>
            {pages > 1 && (
              <Pagination total={pages} value={query.page} onChange={(page) => void load({ page }, { keepRows: true })} size="sm" />
            )}
          </Group>
        </Stack>
      )}

      <DeleteMonitorModal monitor={pendingDelete} onClose={() => setPendingDelete(null)} onConfirm={deleteMonitor} />
    </Stack>
  );
}
