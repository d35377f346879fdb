import { Button, EmptyState, Group, Pagination, Stack, Text, Title } from '@mantine/core';
import { IconBellCheck, IconRefresh } from '@tabler/icons-react';
import { useCallback, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useShallow } from 'zustand/react/shallow';
import { errorText } from '../api/errors';
import { LiveBadge } from '../components/LiveBadge/LiveBadge';
import { ErrorState, LoadingState } from '../components/PageState/PageState';
import { ALERTS_PAGE_SIZE } from '../features/alerts/api';
import { AlertCard } from '../features/alerts/components/AlertCard';
import { AlertFilters } from '../features/alerts/components/AlertFilters';
import { useAlertsStore } from '../features/alerts/store';
import { useNow } from '../features/alerts/useNow';
import { joinRoom } from '../realtime/socket';
import { usePollingFallback } from '../realtime/usePollingFallback';

/** Open and recent alerts with their messages and acknowledgements, paged and filtered on the server, live. */
export default function AlertsPage() {
  const { t } = useTranslation();
  const { alerts, total, counts, query, status, error, fetching, load } = useAlertsStore(
    useShallow((state) => ({
      alerts: state.rows,
      total: state.total,
      counts: state.counts,
      query: state.query,
      status: state.status,
      error: state.error,
      fetching: state.fetching,
      load: state.load,
    })),
  );
  const now = useNow();

  useEffect(() => {
    void load();
  }, [load]);
  useEffect(() => joinRoom('alerts'), []);
  usePollingFallback(useCallback(() => void load({}, { quiet: true }), [load]));

  const pages = Math.max(1, Math.ceil(total / ALERTS_PAGE_SIZE));
  return (
    <Stack gap="lg" data-testid="alerts-page">
      <Group justify="space-between" align="flex-start">
        <div>
          <Group gap="sm">
            <Title order={2}>{t('alerts.title')}</Title>
            <LiveBadge />
          </Group>
          <Text c="dimmed" mt={4}>
            {t('alerts.subtitle')}
          </Text>
        </div>
        <Button
          variant="default"
          leftSection={<IconRefresh size={16} />}
          loading={fetching}
          onClick={() => void load({}, { quiet: true })}
          data-testid="alerts-refresh"
        >
          {t('common.refresh')}
        </Button>
      </Group>
      <AlertFilters query={query} counts={counts} onChange={(patch) => void load(patch, { keepRows: true })} />
      {status === 'error' && <ErrorState message={errorText(t, error, t('alerts.loadError'))} onRetry={() => void load()} />}
      {(status === 'loading' || status === 'idle') && <LoadingState />}
      {status === 'ready' && alerts.length === 0 && (
        <EmptyState icon={<IconBellCheck size={28} />} variant="light" title={t('alerts.empty')} data-testid="alerts-empty" />
      )}
      {status === 'ready' && alerts.length > 0 && (
        <Stack gap="sm" data-testid="alerts-list">
          {alerts.map((alert) => (
            <AlertCard key={alert.id} alert={alert} now={now} />
          ))}
        </Stack>
      )}
      {pages > 1 && (
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            {t('alerts.total', { count: total })}
          </Text>
          <Pagination
            total={pages}
            value={query.page}
            onChange={(page) => void load({ page }, { keepRows: true })}
            size="sm"
            data-testid="alerts-pages"
          />
        </Group>
      )}
    </Stack>
  );
}
