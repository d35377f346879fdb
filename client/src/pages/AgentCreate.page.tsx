import { Button, Card, Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconClockHour4 } from '@tabler/icons-react';
import type { AgentTokenResponse } from '@vigil/proto';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { errorText } from '../api/errors';
import { LiveBadge } from '../components/LiveBadge/LiveBadge';
import { ErrorState } from '../components/PageState/PageState';
import { agentsApi } from '../features/agents/api';
import { AgentInstallGuide } from '../features/agents/components/AgentInstallGuide';
import { CommandBlock } from '../features/agents/components/CommandBlock';
import { RegisteredAgents } from '../features/agents/components/RegisteredAgents';
import { useAgentEnrolmentStore } from '../features/agents/enrolmentStore';
import { joinRoom } from '../realtime/socket';
import { usePollingFallback } from '../realtime/usePollingFallback';
import { PATHS } from '../routes/paths';

type TokenState = { status: 'loading' } | { status: 'ready'; token: AgentTokenResponse } | { status: 'error'; error: unknown };

/** The address agents are told to use: the server's PUBLIC_URL when set, else the address this page came from. */
export function serverAddress(token: Pick<AgentTokenResponse, 'server_url'>): string {
  return token.server_url ?? window.location.origin;
}

export default function AgentCreatePage() {
  const { t } = useTranslation();
  const [state, setState] = useState<TokenState>({ status: 'loading' });
  const registered = useAgentEnrolmentStore((store) => store.registered);
  const { watch, reset, refresh } = useAgentEnrolmentStore.getState();
  const requested = useRef(false);
  const mounted = useRef(true);

  const generate = useCallback(() => {
    setState({ status: 'loading' });
    agentsApi
      .generateToken()
      .then((token) => {
        if (!mounted.current) return;
        watch(token.token_id);
        setState({ status: 'ready', token });
      })
      .catch((error: unknown) => setState({ status: 'error', error }));
  }, [watch]);

  // One token per visit: the effect runs twice in development's strict mode, the request only once.
  useEffect(() => {
    if (requested.current) return;
    requested.current = true;
    generate();
  }, [generate]);
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      reset();
    };
  }, [reset]);
  useEffect(() => joinRoom('agents'), []);
  usePollingFallback(useCallback(() => void refresh(), [refresh]));

  const backButton = (
    <Button
      component={Link}
      to={PATHS.agents}
      variant="default"
      leftSection={<IconArrowLeft size={16} />}
      w="fit-content"
      data-testid="agent-create-back"
    >
      {t('agent.create.backToList')}
    </Button>
  );

  return (
    <Stack gap="lg" maw={960} data-testid="agent-create-page">
      <div>
        <Group gap="sm">
          <Title order={2}>{t('agent.create.title')}</Title>
          <LiveBadge />
        </Group>
        <Text c="dimmed" mt={4}>
          {t('agent.create.subtitle')}
        </Text>
      </div>

      {state.status === 'loading' && (
        <Card withBorder radius="md" padding="lg">
          <Center>
            <Group gap="sm">
              <Loader size="sm" />
              <Text c="dimmed">{t('agent.create.generating')}</Text>
            </Group>
          </Center>
        </Card>
      )}
      {state.status === 'error' && (
        <ErrorState message={errorText(t, state.error, t('agent.create.tokenError'))} onRetry={generate} action={backButton} />
      )}
      {state.status === 'ready' && (
        <>
          <Card withBorder radius="md" padding="lg">
            <Stack gap="md">
              <CommandBlock
                description={
                  <>
                    <Text span fw={600} c="var(--mantine-color-text)">
                      {t('agent.create.serverAddress')}
                    </Text>
                    {' · '}
                    {t('agent.create.serverAddressHint')}
                  </>
                }
                value={serverAddress(state.token)}
                testId="agent-server-address"
                copyTestId="copy-server-address"
                copyLabel={`${t('common.copy')}: ${t('agent.create.serverAddress')}`}
              />
              <CommandBlock
                description={
                  <Text span fw={600} c="var(--mantine-color-text)">
                    {t('agent.create.token')}
                  </Text>
                }
                value={state.token.token}
                testId="agent-token"
                copyTestId="copy-token"
                copyLabel={`${t('common.copy')}: ${t('agent.create.token')}`}
              />
              <Group gap={6} wrap="nowrap" c="dimmed">
                <IconClockHour4 size={16} style={{ flexShrink: 0 }} />
                <Text size="sm" data-testid="agent-token-note">
                  {t('agent.create.tokenNote')}
                </Text>
              </Group>
            </Stack>
          </Card>
          <AgentInstallGuide server={serverAddress(state.token)} token={state.token.token} />
          <RegisteredAgents agents={registered} />
        </>
      )}

      {state.status !== 'error' && backButton}
    </Stack>
  );
}
