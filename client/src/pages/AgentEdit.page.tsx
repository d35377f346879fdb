import { Button, Stack, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import type { AgentDto } from '@vigil/proto';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { errorText, failureWithReason } from '../api/errors';
import { ApiError } from '../api/http';
import { notify } from '../app/notify';
import { ErrorState, LoadingState } from '../components/PageState/PageState';
import { agentsApi } from '../features/agents/api';
import { AgentEditForm } from '../features/agents/components/AgentEditForm';
import { MissingAgent } from '../features/agents/components/MissingAgent';
import { agentDetailPath, parseIdParam, PATHS } from '../routes/paths';

/** The agent edit screen's shorter toast, and the pause before it returns to the list (spec section 9). */
export const AGENT_EDIT_TOAST_MS = 2000;
export const AGENT_EDIT_REDIRECT_MS = 1500;

type LoadState = { status: 'loading' } | { status: 'ready'; agent: AgentDto } | { status: 'missing' } | { status: 'error'; error: unknown };

export default function AgentEditPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const rawId = useParams().id ?? '';
  const id = parseIdParam(rawId);
  const [state, setState] = useState<LoadState>({ status: 'loading' });
  const [saved, setSaved] = useState(false);
  const redirectTimer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const load = useCallback(() => {
    if (id === null) return;
    setState({ status: 'loading' });
    agentsApi
      .get(id)
      .then((response) => setState({ status: 'ready', agent: response.agent }))
      .catch((error: unknown) =>
        setState(error instanceof ApiError && error.status === 404 ? { status: 'missing' } : { status: 'error', error }),
      );
  }, [id]);

  useEffect(load, [load]);
  useEffect(
    () => () => {
      if (redirectTimer.current) clearTimeout(redirectTimer.current);
    },
    [],
  );

  if (id === null || state.status === 'missing') return <MissingAgent id={rawId} />;
  if (state.status === 'loading') return <LoadingState />;
  if (state.status === 'error') return <ErrorState message={errorText(t, state.error, t('agent.loadError'))} onRetry={load} />;

  const agent = state.agent;

  async function save(name: string): Promise<string | null> {
    try {
      await agentsApi.update(agent.id, { name });
      setSaved(true);
      notify.success(t('agent.form.updated'), undefined, AGENT_EDIT_TOAST_MS);
      redirectTimer.current = setTimeout(() => navigate(PATHS.agents), AGENT_EDIT_REDIRECT_MS);
      return null;
    } catch (error) {
      return failureWithReason(t, t('agent.form.updateError'), error);
    }
  }

  return (
    <Stack gap="lg">
      <Button
        component={Link}
        to={agentDetailPath(agent.id)}
        variant="subtle"
        leftSection={<IconArrowLeft size={16} />}
        w="fit-content"
        px={0}
      >
        {t('agent.form.backToAgent')}
      </Button>
      <Title order={2} data-testid="agent-edit-title">
        {t('agent.form.title', { name: agent.name })}
      </Title>
      <AgentEditForm
        key={agent.id}
        initialName={agent.name}
        onSubmit={save}
        onCancel={() => navigate(agentDetailPath(agent.id))}
        done={saved}
      />
    </Stack>
  );
}
