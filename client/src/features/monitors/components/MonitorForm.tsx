import { Button, Collapse, Group, NativeSelect, Paper, SimpleGrid, Stack, Text, Textarea, TextInput, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import { HTTP_METHODS, SECRET_MASK, type HttpMethod, type MonitorRequest } from '@vigil/proto';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError } from '../../../components/FormError/FormError';
import { expectedStatusOptions } from '../format';
import { methodHasBody, type MonitorFormErrors, type MonitorFormValues, toMonitorRequest, validateMonitorForm } from '../form';
import { HeaderRowsInput } from './HeaderRowsInput';

interface MonitorFormProps {
  initial: MonitorFormValues;
  submitLabel: string;
  /** Sends the request; resolves to an error text to show above the fields, or null on success. */
  onSubmit: (request: MonitorRequest) => Promise<string | null>;
  onCancel: () => void;
}

/**
 * Create and edit form (spec sections 2, 5 and 9): interval in minutes, headers as rows, body only for methods that
 * send one, retries in an advanced section. Nothing is sent while a field is invalid.
 */
export function MonitorForm({ initial, submitLabel, onSubmit, onCancel }: MonitorFormProps) {
  const { t } = useTranslation();
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<MonitorFormErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [advanced, setAdvanced] = useState(false);

  const set = <K extends keyof MonitorFormValues>(key: K, value: MonitorFormValues[K]) =>
    setValues((current) => ({ ...current, [key]: value }));
  const fieldError = (field: keyof MonitorFormErrors) => (errors[field] ? t(`monitor.form.errors.${errors[field]}`) : undefined);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = validateMonitorForm(values);
    setErrors(found);
    // Retry fields live in the collapsed section: open it so their error is seen.
    if (found.retries || found.retryInterval) setAdvanced(true);
    if (Object.keys(found).length > 0) return;
    setSubmitting(true);
    setFormError(null);
    const failure = await onSubmit(toMonitorRequest(values));
    setSubmitting(false);
    setFormError(failure);
  }

  return (
    <Paper withBorder radius="md" p="lg" maw={720}>
      <form onSubmit={handleSubmit} noValidate data-testid="monitor-form">
        <Stack gap="md">
          <FormError message={formError} />
          <TextInput
            name="name"
            label={t('monitor.form.name')}
            placeholder={t('monitor.form.namePlaceholder')}
            withAsterisk
            autoComplete="off"
            value={values.name}
            error={fieldError('name')}
            onChange={(event) => set('name', event.currentTarget.value)}
          />
          <TextInput
            name="url"
            type="url"
            label={t('monitor.form.url')}
            placeholder={t('monitor.form.urlPlaceholder')}
            withAsterisk
            autoComplete="off"
            value={values.url}
            description={values.url.includes(SECRET_MASK) ? t('monitor.form.urlSecretKept') : undefined}
            error={fieldError('url')}
            onChange={(event) => set('url', event.currentTarget.value)}
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <NativeSelect
              name="method"
              label={t('monitor.form.method')}
              description={t('monitor.form.methodDescription')}
              withAsterisk
              data={[...HTTP_METHODS]}
              value={values.method}
              onChange={(event) => set('method', event.currentTarget.value as HttpMethod)}
            />
            <NativeSelect
              name="expectedStatus"
              label={t('monitor.form.expectedStatus')}
              description={t('monitor.form.expectedStatusDescription')}
              withAsterisk
              data={expectedStatusOptions(values.expectedStatus)}
              value={String(values.expectedStatus)}
              onChange={(event) => set('expectedStatus', Number(event.currentTarget.value))}
            />
            <TextInput
              name="interval"
              inputMode="numeric"
              label={t('monitor.form.interval')}
              description={t('monitor.form.intervalDescription')}
              withAsterisk
              value={values.interval}
              error={fieldError('interval')}
              onChange={(event) => set('interval', event.currentTarget.value)}
            />
            <TextInput
              name="timeout"
              inputMode="numeric"
              label={t('monitor.form.timeout')}
              description={t('monitor.form.timeoutDescription')}
              withAsterisk
              value={values.timeout}
              error={fieldError('timeout')}
              onChange={(event) => set('timeout', event.currentTarget.value)}
            />
          </SimpleGrid>
          <HeaderRowsInput rows={values.headers} onChange={(rows) => set('headers', rows)} error={fieldError('headers')} />
          {methodHasBody(values.method) && (
            <Textarea
              name="body"
              label={t('monitor.form.body')}
              description={t('monitor.form.bodyDescription')}
              autosize
              minRows={3}
              maxRows={12}
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
              value={values.body}
              error={fieldError('body')}
              onChange={(event) => set('body', event.currentTarget.value)}
            />
          )}
          <UnstyledButton onClick={() => setAdvanced((open) => !open)} aria-expanded={advanced} data-testid="monitor-advanced">
            <Group gap={4}>
              {advanced ? <IconChevronDown size={16} /> : <IconChevronRight size={16} />}
              <Text size="sm" fw={500}>
                {t('monitor.form.advanced')}
              </Text>
            </Group>
          </UnstyledButton>
          <Collapse expanded={advanced}>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
              <TextInput
                name="retries"
                inputMode="numeric"
                label={t('monitor.form.retries')}
                description={t('monitor.form.retriesDescription')}
                value={values.retries}
                error={fieldError('retries')}
                onChange={(event) => set('retries', event.currentTarget.value)}
              />
              <TextInput
                name="retryInterval"
                inputMode="numeric"
                label={t('monitor.form.retryInterval')}
                description={t('monitor.form.retryIntervalDescription')}
                value={values.retryInterval}
                error={fieldError('retryInterval')}
                onChange={(event) => set('retryInterval', event.currentTarget.value)}
              />
            </SimpleGrid>
          </Collapse>
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onCancel} disabled={submitting}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={submitting}>
              {submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
