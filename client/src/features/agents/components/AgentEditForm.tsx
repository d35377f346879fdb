import { Button, Group, Paper, Stack, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError } from '../../../components/FormError/FormError';
import { validateAgentName } from '../form';

interface AgentEditFormProps {
  initialName: string;
  /** Saves the trimmed name; resolves to an error text to show above the field, or null on success. */
  onSubmit: (name: string) => Promise<string | null>;
  onCancel: () => void;
  /** After a successful save, while the page waits to move on. */
  done?: boolean;
}

/** The agent edit form: the name only, required and at most 100 characters (spec sections 2 and 5). */
export function AgentEditForm({ initialName, onSubmit, onCancel, done = false }: AgentEditFormProps) {
  const { t } = useTranslation();
  const [name, setName] = useState(initialName);
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const problem = validateAgentName(name);
    setFieldError(problem ? t(`server.${problem}`) : null);
    if (problem) return;
    setSubmitting(true);
    setFormError(null);
    const failure = await onSubmit(name.trim());
    setSubmitting(false);
    setFormError(failure);
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
