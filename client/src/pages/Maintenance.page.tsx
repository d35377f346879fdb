import { Button, EmptyState, Group, Pagination, SegmentedControl, Stack, Text } from '@mantine/core';
import { IconCalendar, IconList, IconPlus, IconTool } from '@tabler/icons-react';
import type { MaintenanceDto } from '@vigil/proto';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useShallow } from 'zustand/react/shallow';
import { errorText } from '../api/errors';
import { notify } from '../app/notify';
import { ConfirmDeleteModal } from '../components/ConfirmDeleteModal/ConfirmDeleteModal';
import { IconSegmentLabel } from '../components/ListControls/ListControls';
import { ListPageHeader } from '../components/ListPageHeader/ListPageHeader';
import { ErrorState, LoadingState } from '../components/PageState/PageState';
import { selectCanWrite, useAuthStore } from '../features/auth/store';
import { MAINTENANCE_PAGE_SIZE, MAINTENANCE_PHASE_FILTERS, maintenanceApi, type MaintenancePhaseFilter } from '../features/maintenance/api';
import { MaintenanceCalendar } from '../features/maintenance/components/MaintenanceCalendar';
import { MaintenanceCard } from '../features/maintenance/components/MaintenanceCard';
import { useMaintenanceStore } from '../features/maintenance/store';
import { liveCache } from '../live/cache';
import { joinRoom } from '../realtime/socket';
import { usePollingFallback } from '../realtime/usePollingFallback';
import { PATHS } from '../routes/paths';

type View = 'list' | 'calendar';

/** Maintenance windows by phase (active first, then scheduled), or a month calendar of their occurrences; live. */
export default function MaintenancePage() {
  const { t } = useTranslation();
  const canWrite = useAuthStore(selectCanWrite);
  const { items, total, query, status, error, fetching, load, remove } = useMaintenanceStore(
    useShallow((state) => ({
      items: state.rows,
      total: state.total,
      query: state.query,
      status: state.status,
      error: state.error,
      fetching: state.fetching,
      load: state.load,
      remove: state.remove,
    })),
  );
  const [view, setView] = useState<View>('list');
  const [ending, setEnding] = useState<number | null>(null);
  const [deleting, setDeleting] = useState<(MaintenanceDto & { name: string }) | null>(null);

  useEffect(() => {
    void load();
  }, [load]);
  useEffect(() => joinRoom('maintenance'), []);
  usePollingFallback(useCallback(() => void load({}, { quiet: true }), [load]));

  async function end(item: MaintenanceDto) {
    setEnding(item.id);
    try {
      const answer = await maintenanceApi.end(item.id);
      liveCache.maintenance.write([answer.maintenance]);
      notify.success(t('maintenance.ended'));
      void load({}, { quiet: true });
    } catch (failure) {
      notify.error(errorText(t, failure, t('maintenance.endFailed')), t('maintenance.endFailed'));
    } finally {
      setEnding(null);
    }
  }

  async function destroy(item: MaintenanceDto) {
    await remove(item.id);
    notify.success(t('maintenance.deleted'));
    setDeleting(null);
  }

  const pages = Math.max(1, Math.ceil(total / MAINTENANCE_PAGE_SIZE));
  const createButton = (testId: string) =>
    canWrite && (
      <Button component={Link} to={PATHS.maintenanceCreate} leftSection={<IconPlus size={16} />} data-testid={testId}>
        {t('maintenance.create')}
      </Button>
    );

  return (
    <Stack gap="lg" data-testid="maintenance-page">
      <ListPageHeader
        title={t('maintenance.title')}
        subtitle={t('maintenance.subtitle')}
        testId="maintenance"
        refresh={{ label: t('common.refresh'), loading: fetching && status === 'ready', onClick: () => void load({}, { quiet: true }) }}
        create={canWrite ? { label: t('maintenance.create'), to: PATHS.maintenanceCreate } : undefined}
      />

      <Group gap="sm" wrap="wrap" justify="space-between">
        {view === 'list' ? (
          <SegmentedControl
            value={query.phase}
            onChange={(phase) => void load({ phase: phase as MaintenancePhaseFilter, page: 1 }, { keepRows: true })}
            data={MAINTENANCE_PHASE_FILTERS.map((phase) => ({ value: phase, label: t(`maintenance.filters.${phase}`) }))}
            data-testid="maintenance-phase"
          />
        ) : (
          <span />
        )}
        <SegmentedControl
          value={view}
          onChange={(next) => setView(next as View)}
          data={[
            { value: 'list', label: <IconSegmentLabel icon={<IconList size={16} />} text={t('maintenance.views.list')} /> },
            { value: 'calendar', label: <IconSegmentLabel icon={<IconCalendar size={16} />} text={t('maintenance.views.calendar')} /> },
          ]}
          data-testid="maintenance-view"
        />
      </Group>

      {view === 'calendar' && <MaintenanceCalendar canWrite={canWrite} />}
      {view === 'list' && status === 'error' && (
        <ErrorState message={errorText(t, error, t('maintenance.loadError'))} onRetry={() => void load()} />
      )}
      {view === 'list' && (status === 'loading' || status === 'idle') && <LoadingState />}
      {view === 'list' && status === 'ready' && items.length === 0 && (
        <EmptyState icon={<IconTool size={28} />} variant="light" title={t('maintenance.empty')} data-testid="maintenance-empty">
          <EmptyState.Actions>{createButton('maintenance-empty-create')}</EmptyState.Actions>
        </EmptyState>
      )}
      {view === 'list' && status === 'ready' && items.length > 0 && (
        <Stack gap="sm" style={{ opacity: fetching ? 0.7 : 1 }} aria-busy={fetching} data-testid="maintenance-list">
          {items.map((item) => (
            <MaintenanceCard
              key={item.id}
              item={item}
              canWrite={canWrite}
              ending={ending === item.id}
              onEnd={(target) => void end(target)}
              onDelete={(target) => setDeleting({ ...target, name: target.title })}
            />
          ))}
          <Group justify="space-between">
            <Text size="sm" c="dimmed" data-testid="maintenance-total">
              {t('maintenance.total', { count: total })}
            </Text>
            {pages > 1 && (
              <Pagination total={pages} value={query.page} onChange={(page) => void load({ page }, { keepRows: true })} size="sm" />
            )}
          </Group>
        </Stack>
      )}

      <ConfirmDeleteModal
        item={deleting}
        texts={{
          title: t('maintenance.deleteTitle'),
          message: (name) => t('maintenance.deleteMessage', { title: name }),
          failed: t('maintenance.deleteFailed'),
          confirm: t('common.delete'),
        }}
        onClose={() => setDeleting(null)}
        onConfirm={destroy}
      />
    </Stack>
  );
}
