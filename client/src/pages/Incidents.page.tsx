import { Button, EmptyState, Group, Pagination, SegmentedControl, Stack, Text } from '@mantine/core';
import { IconMessageReport, IconPlus } from '@tabler/icons-react';
import { useCallback, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useShallow } from 'zustand/react/shallow';
import { errorText } from '../api/errors';
import { ListPageHeader } from '../components/ListPageHeader/ListPageHeader';
import { SearchInput } from '../components/ListControls/ListControls';
import { ErrorState, LoadingState } from '../components/PageState/PageState';
import { selectCanWrite, useAuthStore } from '../features/auth/store';
import { INCIDENT_STATE_FILTERS, INCIDENTS_PAGE_SIZE, type IncidentStateFilter } from '../features/incidents/api';
import { IncidentCard } from '../features/incidents/components/IncidentCard';
import { useIncidentsStore } from '../features/incidents/store';
import { joinRoom } from '../realtime/socket';
import { usePollingFallback } from '../realtime/usePollingFallback';
import { PATHS } from '../routes/paths';

/** Incidents by state (active, drafts, resolved), searched and paged on the server, live. */
export default function IncidentsPage() {
  const { t } = useTranslation();
  const canWrite = useAuthStore(selectCanWrite);
  const { incidents, total, query, status, error, fetching, load } = useIncidentsStore(
    useShallow((state) => ({
      incidents: state.rows,
      total: state.total,
      query: state.query,
      status: state.status,
      error: state.error,
      fetching: state.fetching,
      load: state.load,
    })),
  );

  useEffect(() => {
    void load();
  }, [load]);
  useEffect(() => joinRoom('incidents'), []);
  usePollingFallback(useCallback(() => void load({}, { quiet: true }), [load]));

  const pages = Math.max(1, Math.ceil(total / INCIDENTS_PAGE_SIZE));
  const createButton = (testId: string) =>
    canWrite && (
      <Button component={Link} to={PATHS.incidentCreate} leftSection={<IconPlus size={16} />} data-testid={testId}>
        {t('incidents.create')}
      </Button>
    );

  return (
    <Stack gap="lg" data-testid="incidents-page">
      <ListPageHeader
        title={t('incidents.title')}
        subtitle={t('incidents.subtitle')}
        testId="incidents"
        refresh={{ label: t('common.refresh'), loading: fetching && status === 'ready', onClick: () => void load({}, { quiet: true }) }}
        create={canWrite ? { label: t('incidents.create'), to: PATHS.incidentCreate } : undefined}
      />

      <Group gap="sm" wrap="wrap">
        <SegmentedControl
          value={query.state}
          onChange={(state) => void load({ state: state as IncidentStateFilter, page: 1 }, { keepRows: true })}
          data={INCIDENT_STATE_FILTERS.map((state) => ({ value: state, label: t(`incidents.states.${state}`) }))}
          data-testid="incidents-state"
        />
        <SearchInput
          search={query.search}
          onSearch={(search) => void load({ search, page: 1 }, { keepRows: true })}
          label={t('incidents.search')}
          testId="incidents-search"
        />
      </Group>

      {status === 'error' && <ErrorState message={errorText(t, error, t('incidents.loadError'))} onRetry={() => void load()} />}
      {(status === 'loading' || status === 'idle') && <LoadingState />}
      {status === 'ready' && incidents.length === 0 && (
        <EmptyState icon={<IconMessageReport size={28} />} variant="light" title={t('incidents.empty')} data-testid="incidents-empty">
          <EmptyState.Actions>{createButton('incidents-empty-create')}</EmptyState.Actions>
        </EmptyState>
      )}
      {status === 'ready' && incidents.length > 0 && (
        <Stack gap="sm" style={{ opacity: fetching ? 0.7 : 1 }} aria-busy={fetching} data-testid="incidents-list">
          {incidents.map((incident) => (
            <IncidentCard key={incident.id} incident={incident} />
          ))}
          <Group justify="space-between">
            <Text size="sm" c="dimmed" data-testid="incidents-total">
              {t('incidents.total', { count: total })}
            </Text>
            {pages > 1 && (
              <Pagination total={pages} value={query.page} onChange={(page) => void load({ page }, { keepRows: true })} size="sm" />
            )}
          </Group>
        </Stack>
      )}
    </Stack>
  );
}
