import { Button, EmptyState, Group, Pagination, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconPlus, IconSearch, IconServer } from '@tabler/icons-react';
import type { AgentDto } from '@vigil/proto';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useShallow } from 'zustand/react/shallow';
import { errorText } from '../api/errors';
import { notify } from '../app/notify';
import { ListPageHeader } from '../components/ListPageHeader/ListPageHeader';
import { ErrorState, LoadingState } from '../components/PageState/PageState';
import { AgentCard } from '../features/agents/components/AgentCard';
import { selectCanWrite, useAuthStore } from '../features/auth/store';
import { AgentListToolbar } from '../features/agents/components/AgentListToolbar';
import { AgentTable } from '../features/agents/components/AgentTable';
import { DeleteAgentModal } from '../features/agents/components/DeleteAgentModal';
import { AGENTS_PAGE_SIZE, useAgentsStore } from '../features/agents/listStore';
import { useAgentView } from '../features/agents/useAgentView';
import { joinRoom } from '../realtime/socket';
import { usePollingFallback } from '../realtime/usePollingFallback';
import { PATHS } from '../routes/paths';

export default function AgentsPage() {
  const { t } = useTranslation();
  const { agents, total, counts, query, status, error, fetching, load, remove } = useAgentsStore(
    useShallow((state) => ({
      agents: state.rows,
      total: state.total,
      counts: state.counts,
      query: state.query,
      status: state.status,
      error: state.error,
      fetching: state.fetching,
      load: state.load,
      remove: state.remove,
    })),
  );
  const [view, setView] = useAgentView();
  const [pendingDelete, setPendingDelete] = useState<AgentDto | null>(null);
  const [refreshing, setRefreshing] = useState(false);

  useEffect(() => {
    void load();
  }, [load]);
  useEffect(() => joinRoom('agents'), []);
  usePollingFallback(useCallback(() => void load({}, { quiet: true }), [load]));

  async function refresh() {
    setRefreshing(true);
    await load({}, { quiet: status === 'ready' });
    setRefreshing(false);
  }

  async function deleteAgent(agent: AgentDto) {
    await remove(agent.id);
    notify.success(t('agents.delete.success'));
    setPendingDelete(null);
  }

  const pages = Math.max(1, Math.ceil(total / AGENTS_PAGE_SIZE));
  const unfiltered = query.status === 'all' && query.search.trim() === '';
  // A viewer reads only: no add button.
  const canWrite = useAuthStore(selectCanWrite);
  const createButton = (testId: string) =>
    canWrite && (
      <Button component={Link} to={PATHS.agentCreate} leftSection={<IconPlus size={16} />} data-testid={testId}>
        {t('agents.create')}
      </Button>
    );

  return (
    <Stack gap="lg" data-testid="agents-page">
      <ListPageHeader
        title={t('agents.title')}
        subtitle={t('agents.subtitle')}
        testId="agents"
        refresh={{ label: t('agents.refresh'), loading: refreshing, onClick: () => void refresh() }}
        create={canWrite ? { label: t('agents.create'), to: PATHS.agentCreate } : undefined}
      />

      <AgentListToolbar
        status={query.status}
        search={query.search}
        counts={counts}
        view={view}
        onStatus={(next) => void load({ status: next, page: 1 }, { keepRows: true })}
        onSearch={(search) => void load({ search, page: 1 }, { keepRows: true })}
        onView={setView}
      />

      {status === 'error' && <ErrorState message={errorText(t, error, t('agents.loadingError'))} onRetry={() => void load()} />}
      {(status === 'loading' || status === 'idle') && <LoadingState />}
      {status === 'ready' && agents.length === 0 && unfiltered && (
        <EmptyState
          icon={<IconServer size={28} />}
          variant="light"
          title={t('agents.empty')}
          description={t('agents.emptyDescription')}
          data-testid="agents-empty"
        >
          <EmptyState.Actions>{createButton('agents-empty-create')}</EmptyState.Actions>
        </EmptyState>
      )}
      {status === 'ready' && agents.length === 0 && !unfiltered && (
        <EmptyState
          icon={<IconSearch size={28} />}
          variant="light"
          title={t('agents.noMatch')}
          description={t('agents.noMatchDescription')}
          data-testid="agents-no-match"
        />
      )}
      {status === 'ready' && agents.length > 0 && (
        // The rows of the previous page or filter stay, dimmed, until the next ones arrive.
        <Stack gap="sm" style={{ opacity: fetching && !refreshing ? 0.6 : 1, transition: 'opacity 150ms' }} aria-busy={fetching}>
          {view === 'table' ? (
            <AgentTable agents={agents} onDelete={setPendingDelete} />
          ) : (
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" data-testid="agents-cards">
              {agents.map((agent) => (
                <AgentCard key={agent.id} agent={agent} testId={`agent-card-${agent.id}`} onDelete={setPendingDelete} />
              ))}
            </SimpleGrid>
          )}
          <Group justify="space-between">
            <Text size="sm" c="dimmed" data-testid="agents-total">
              {t('agents.total', { total })}
            </Text>
            {pages > 1 && (
              <Pagination total={pages} value={query.page} onChange={(page) => void load({ page }, { keepRows: true })} size="sm" />
            )}
          </Group>
        </Stack>
      )}

      <DeleteAgentModal agent={pendingDelete} onClose={() => setPendingDelete(null)} onConfirm={deleteAgent} />
    </Stack>
  );
}
