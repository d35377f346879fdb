import { EmptyState, Group, SimpleGrid, Stack, Title } from '@mantine/core';
import { IconWorldWww } from '@tabler/icons-react';
import { useCallback, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useShallow } from 'zustand/react/shallow';
import { errorText } from '../api/errors';
import { ErrorState, LoadingState } from '../components/PageState/PageState';
import { StatusLegend } from '../components/StatusLegend/StatusLegend';
import { OverallBanner } from '../features/status/components/OverallBanner';
import { PublicAgentCard } from '../features/status/components/PublicAgentCard';
import { PublicMonitorCard } from '../features/status/components/PublicMonitorCard';
import { StatusPageHeader } from '../features/status/components/StatusPageHeader';
import { STATUS_PAGE_CLASS, useCustomCss } from '../features/status/customCss';
import { useStatusPageStore } from '../features/status/pageStore';
import { joinRoom } from '../realtime/socket';
import { usePollingFallback } from '../realtime/usePollingFallback';

/** The window title while the page is open; the previous one comes back when it closes. */
function useWindowTitle(title: string): void {
  useEffect(() => {
    const previous = document.title;
    document.title = title;
    return () => {
      document.title = previous;
    };
  }, [title]);
}

/**
 * The public status page: open to anyone, live through the `status` room (anonymous sockets may join it), and read
 * every 60 s while the socket is down. Everything sits inside `.vigil-status-page`, the only place custom CSS reaches.
 */
export default function StatusPage() {
  const { t } = useTranslation();
  const { data, status, error, load } = useStatusPageStore(
    useShallow((state) => ({ data: state.data, status: state.status, error: state.error, load: state.load })),
  );

  useEffect(() => {
    void load();
  }, [load]);
  useEffect(() => joinRoom('status'), []);
  usePollingFallback(useCallback((signal: AbortSignal) => void load({ quiet: true, signal }), [load]));

  const title = data?.title.trim() || t('statusPage.title');
  useWindowTitle(title);
  useCustomCss(status === 'ready' ? data?.customCss : null);

  return (
    <div className={STATUS_PAGE_CLASS} id={STATUS_PAGE_CLASS} data-testid="status-page">
      <Stack gap="lg">
        <StatusPageHeader
          title={title}
          description={data?.description ?? ''}
          logoUrl={data?.logoUrl ?? null}
          updatedAt={data?.updated_at ?? null}
        />
        {status === 'error' && <ErrorState message={errorText(t, error, t('statusPage.loadError'))} onRetry={() => void load()} />}
        {(status === 'idle' || status === 'loading') && <LoadingState />}
        {status === 'ready' && data && (
          <>
            <OverallBanner overall={data.overall} />
            {data.monitors.length === 0 && data.agents.length === 0 && (
              <EmptyState
                icon={<IconWorldWww size={28} />}
                variant="light"
                title={t('statusPage.empty')}
                description={t('statusPage.emptyDescription')}
                data-testid="status-empty"
              />
            )}
            {data.monitors.length > 0 && (
              <Stack gap="sm" className="vigil-status-services" data-testid="status-services">
                <Group justify="space-between" gap="xs">
                  <Title order={2} size="h3">
                    {t('statusPage.services')}
                  </Title>
                  <StatusLegend />
                </Group>
                <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
                  {data.monitors.map((monitor) => (
                    <PublicMonitorCard key={monitor.id} monitor={monitor} />
                  ))}
                </SimpleGrid>
              </Stack>
            )}
            {data.agents.length > 0 && (
              <Stack gap="sm" className="vigil-status-agents" data-testid="status-agents">
                <Title order={2} size="h3">
                  {t('statusPage.agents')}
                </Title>
                <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
                  {data.agents.map((agent) => (
                    <PublicAgentCard key={agent.id} agent={agent} showResources={data.showResources} />
                  ))}
                </SimpleGrid>
              </Stack>
            )}
          </>
        )}
      </Stack>
    </div>
  );
}
