import { Button, Group, Paper, Stack, TextInput } from '@mantine/core';
import type { AgentUpdateRequest, DependencyRef } from '@vigil/proto';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError } from '../../../components/FormError/FormError';
import { DependencyPicker } from '../../dependencies/DependencyPicker';
import type { SubmitFailure } from '../../monitors/submitFailure';
import { validateAgentName } from '../form';

interface AgentEditFormProps {
  agentId: number;
  initialName: string;
  initialDependsOn: readonly DependencyRef[];
  /** Saves the trimmed name and the dependencies; resolves to an error to show (above the fields or beside the one named), or null. */
  onSubmit: (request: Required<Pick<AgentUpdateRequest, 'name' | 'dependsOn'>>) => Promise<SubmitFailure | null>;
  onCancel: () => void;
  /** After a successful save, while the page waits to move on. */
  done?: boolean;
}

/** The agent edit form: the name (required, at most 100 characters; spec sections 2 and 5) and what it depends on. */
export function AgentEditForm({ agentId, initialName, initialDependsOn, onSubmit, onCancel, done = false }: AgentEditFormProps) {
  const { t } = useTranslation();
  const [name, setName] = useState(initialName);
  const [dependsOn, setDependsOn] = useState<DependencyRef[]>([...initialDependsOn]);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [dependsOnError, setDependsOnError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problem = validateAgentName(name);
    setFieldError(problem ? t(`server.${problem}`) : null);
    if (problem) return;
    setSubmitting(true);
    setFormError(null);
    setDependsOnError(null);
    const failure = await onSubmit({ name: name.trim(), dependsOn });
    setSubmitting(false);
    if (typeof failure === 'string' || failure === null) setFormError(failure);
    else setDependsOnError(failure.text);
  }

  return (
    <Paper withBorder radius="md" p="lg" maw={560}>
      <form onSubmit={handleSubmit} noValidate data-testid="agent-edit-form">
        <Stack gap="md">
          <FormError message={formError} />
          <TextInput
            name="name"
            label={t('agent.form.name')}
            description={t('agent.form.nameDescription')}
            withAsterisk
            autoComplete="off"
            value={name}
            error={fieldError}
            disabled={done}
            onChange={(event) => {
              setName(event.currentTarget.value);
              if (fieldError) setFieldError(null);
            }}
            data-testid="agent-name-input"
          />
          <DependencyPicker
            value={dependsOn}
            onChange={(refs) => {
              setDependsOn(refs);
              setDependsOnError(null);
            }}
            self={{ type: 'agent', id: agentId }}
            description={t('dependencies.agentDescription')}
            error={dependsOnError ?? undefined}
            disabled={done}
          />
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onCancel} disabled={submitting || done}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={submitting} disabled={done} data-testid="agent-save">
              {t('agent.form.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
