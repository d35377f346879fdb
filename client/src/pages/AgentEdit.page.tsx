import { Button, Stack, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import type { DependencyRef } from '@vigil/proto';
import { errorText } from '../api/errors';
import { ApiError } from '../api/http';
import { useRead } from '../api/useRead';
import { notify } from '../app/notify';
import { ErrorState, LoadingState } from '../components/PageState/PageState';
import { agentsApi } from '../features/agents/api';
import { AgentEditForm } from '../features/agents/components/AgentEditForm';
import { MissingAgent } from '../features/agents/components/MissingAgent';
import { saveFailure, type SubmitFailure } from '../features/monitors/submitFailure';
import { agentDetailPath, parseIdParam, PATHS } from '../routes/paths';

/** The agent edit screen's shorter toast, and the pause before it returns to the list (spec section 9). */
export const AGENT_EDIT_TOAST_MS = 2000;
export const AGENT_EDIT_REDIRECT_MS = 1500;

export default function AgentEditPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const rawId = useParams().id ?? '';
  const id = parseIdParam(rawId);
  const read = useRead(useCallback(async (signal: AbortSignal) => (id === null ? null : (await agentsApi.get(id, signal)).agent), [id]));
  const [saved, setSaved] = useState(false);
  const redirectTimer = useRef<ReturnType<typeof setTimeout> | null>(null);

  useEffect(
    () => () => {
      if (redirectTimer.current) clearTimeout(redirectTimer.current);
    },
    [],
  );

  const missing = read.error instanceof ApiError && read.error.status === 404;
  if (id === null || missing) return <MissingAgent id={rawId} />;
  if (read.status === 'loading') return <LoadingState />;
  if (read.status === 'error') return <ErrorState message={errorText(t, read.error, t('agent.loadError'))} onRetry={read.retry} />;
  const agent = read.value;
  if (!agent) return <MissingAgent id={rawId} />;

  // An arrow, not a declaration: it sees the narrowed value above.
  const save = async (request: { name: string; dependsOn: DependencyRef[] }): Promise<SubmitFailure | null> => {
    try {
      await agentsApi.update(agent.id, request);
      setSaved(true);
      notify.success(t('agent.form.updated'), undefined, AGENT_EDIT_TOAST_MS);
      redirectTimer.current = setTimeout(() => navigate(PATHS.agents), AGENT_EDIT_REDIRECT_MS);
      return null;
    } catch (error) {
      return saveFailure(t, t('agent.form.updateError'), error);
    }
  };

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
        agentId={agent.id}
        initialName={agent.name}
        initialDependsOn={agent.depends_on ?? []}
        onSubmit={save}
        onCancel={() => navigate(agentDetailPath(agent.id))}
        done={saved}
      />
    </Stack>
  );
}
