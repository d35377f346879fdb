import {
  Alert,
  Button,
  Collapse,
  Divider,
  Group,
  NativeSelect,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import { IconAlertCircle, IconChevronDown, IconChevronRight, IconPlayerPlay } from '@tabler/icons-react';
import { isProbeType, typeSpec } from '@vigil/proto';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { failureWithReason } from '../../../api/errors';
import { FormError } from '../../../components/FormError/FormError';
import { selectIsAdmin, useAuthStore } from '../../auth/store';
import { DependencyPicker } from '../../dependencies/DependencyPicker';
import { type MonitorBody, monitorsApi } from '../api';
import {
  INTERVAL_UNITS,
  type IntervalUnit,
  isMessageCode,
  type LocationsSent,
  type MonitorFormErrors,
  type MonitorFormField,
  type MonitorFormValues,
  toMonitorRequest,
  validateMonitorForm,
  withType,
} from '../form';
import type { SubmitFailure } from '../submitFailure';
import { useMonitorLimits } from '../limits';
import { parseCertExpiryDays } from '../types/fields';
import { AssertionBuilder } from './AssertionBuilder';
import { LocationFields } from './LocationFields';
import { MonitorTypePicker } from './MonitorTypePicker';
import { type TestResult, TestResultView } from './TestResultView';
import { ParentGroupField } from './ParentGroupField';
import { HostAgentField } from './HostAgentField';
import { LabelFields } from './LabelFields';
import { TypeFields } from './TypeFields';

interface MonitorFormProps {
  initial: MonitorFormValues;
  submitLabel: string;
  /** Sends the request; resolves to an error to show (above the fields or beside the one named), or null on success. */
  onSubmit: (request: MonitorBody) => Promise<SubmitFailure | null>;
  onCancel: () => void;
  /** Editing a saved monitor: its type is kept unless changed on purpose. */
  editing?: boolean;
  /** The saved monitor's id: it is not offered as its own dependency. */
  monitorId?: number;
}

type TestState =
  { status: 'idle' } | { status: 'running' } | { status: 'done'; result: TestResult } | { status: 'failed'; message: string };

/** Fields kept in the collapsed section: it opens when one of them is wrong, so the error is seen. */
const ADVANCED_FIELDS: readonly MonitorFormField[] = ['retries', 'retryInterval', 'degradedAfterMs'];

/**
 * Create and edit form: the type first (icon cards), then that type's fields, the schedule, the assertions and
 * "test now", which runs one check of the unsaved body. Nothing is sent while a field is invalid.
 */
export function MonitorForm({ initial, submitLabel, onSubmit, onCancel, editing = false, monitorId }: MonitorFormProps) {
  const { t } = useTranslation();
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<MonitorFormErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [serverError, setServerError] = useState<{ field: MonitorFormField; text: string } | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const [advanced, setAdvanced] = useState(false);
  const [test, setTest] = useState<TestState>({ status: 'idle' });
  const limits = useMonitorLimits();
  const isAdmin = useAuthStore(selectIsAdmin);

  const set = <K extends keyof MonitorFormValues>(key: K, value: MonitorFormValues[K]) =>
    setValues((current) => ({ ...current, [key]: value }));
  const fieldError = (field: MonitorFormField) => {
    if (serverError?.field === field) return serverError.text;
    const error = errors[field];
    if (!error) return undefined;
    return isMessageCode(error) ? t(`server.${error}`) : t(`monitor.form.errors.${error}`, { seconds: limits.intervalMin });
  };

  /** The body when every field is valid; otherwise null, with the errors shown. */
  function validBody(locations: LocationsSent): MonitorBody | null {
    const found = validateMonitorForm(values, limits);
    setErrors(found);
    if (ADVANCED_FIELDS.some((field) => found[field])) setAdvanced(true);
    return Object.keys(found).length > 0 ? null : toMonitorRequest(values, locations);
  }

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const body = validBody(isAdmin ? 'all' : 'quorum');
    if (!body) return;
    setSubmitting(true);
    setFormError(null);
    setServerError(null);
    const failure = await onSubmit(body);
    setSubmitting(false);
    if (typeof failure === 'string' || failure === null) setFormError(failure);
    else setServerError(failure);
  }

  async function runTest() {
    // One check from this server: where it runs from later does not matter here.
    const body = validBody('none');
    if (!body) return;
    setTest({ status: 'running' });
    try {
      const answer = await monitorsApi.test(body);
      setTest({ status: 'done', result: answer.result });
    } catch (error) {
      setTest({ status: 'failed', message: failureWithReason(t, t('monitor.test.failedToRun'), error) });
    }
  }

  return (
    <Paper withBorder radius="md" p={{ base: 'sm', xs: 'lg' }} maw={760}>
      <form onSubmit={handleSubmit} noValidate data-testid="monitor-form" data-type={values.type}>
        <Stack gap="md">
          <FormError message={formError} />
          <MonitorTypePicker
            value={values.type}
            locked={editing}
            onChange={(type) => {
              setValues((current) => withType(current, type));
              setErrors({});
              setTest({ status: 'idle' });
            }}
          />
          <Divider />
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
          <TypeFields values={values} set={set} fieldError={fieldError} />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <TextInput
              name="interval"
              inputMode="numeric"
              label={t('monitor.form.interval')}
              description={
                values.type === 'push'
                  ? t('monitor.form.intervalPushDescription')
                  : t('monitor.form.intervalDescription', { seconds: limits.intervalMin })
              }
              withAsterisk
              value={values.interval}
              error={fieldError('interval')}
              onChange={(event) => set('interval', event.currentTarget.value)}
              rightSectionWidth={104}
              rightSection={
                <NativeSelect
                  name="intervalUnit"
                  aria-label={t('monitor.form.intervalUnit')}
                  variant="unstyled"
                  data={INTERVAL_UNITS.map((unit) => ({ value: unit, label: t(`monitor.form.intervalUnits.${unit}`) }))}
                  value={values.intervalUnit}
                  onChange={(event) => set('intervalUnit', event.currentTarget.value as IntervalUnit)}
                />
              }
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
          {/* A group or a manual monitor is never checked: nothing to assert on. */}
          {typeSpec(values.type).sources.length > 0 && (
            <AssertionBuilder
              type={values.type}
              rows={values.assertions}
              onChange={(rows) => set('assertions', rows)}
              rowError={(index) => fieldError(`assertion-${index}`)}
              error={fieldError('assertions')}
            />
          )}
          {isProbeType(values.type) && <LocationFields values={values} set={set} fieldError={fieldError} canChooseAgents={isAdmin} />}
          <DependencyPicker
            value={values.dependsOn}
            onChange={(refs) => {
              set('dependsOn', refs);
              setServerError(null);
            }}
            self={monitorId === undefined ? undefined : { type: 'monitor', id: monitorId }}
            error={fieldError('dependsOn')}
          />
          <ParentGroupField value={values.parentId ?? null} onChange={(parentId) => set('parentId', parentId)} self={monitorId} />
          <HostAgentField value={values.hostAgentId ?? null} onChange={(agentId) => set('hostAgentId', agentId)} />
          <LabelFields values={values} set={set} fieldError={fieldError} />
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
              {/* Push, group and manual monitors have no response time of their own to be slow. */}
              {values.type !== 'push' && !typeSpec(values.type).unscheduled && (
                <TextInput
                  name="degradedAfterMs"
                  inputMode="numeric"
                  label={t('monitor.form.degradedAfter')}
                  description={t('monitor.form.degradedAfterDescription')}
                  value={values.degradedAfterMs}
                  error={fieldError('degradedAfterMs')}
                  onChange={(event) => set('degradedAfterMs', event.currentTarget.value)}
                />
              )}
            </SimpleGrid>
          </Collapse>
          {test.status === 'done' && <TestResultView result={test.result} thresholds={parseCertExpiryDays(values.certExpiryDays) ?? []} />}
          {test.status === 'failed' && (
            <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert" data-testid="monitor-test-failed">
              {test.message}
            </Alert>
          )}
          <Group justify="space-between" mt="sm" gap="sm">
            {/* A push monitor is checked by the pushes it receives, a group by its members, a manual one by hand: nothing to test here. */}
            {values.type !== 'push' && !typeSpec(values.type).unscheduled && (
              <Button
                variant="light"
                leftSection={<IconPlayerPlay size={16} />}
                loading={test.status === 'running'}
                disabled={submitting}
                onClick={() => void runTest()}
                data-testid="monitor-test-now"
              >
                {t('monitor.test.button')}
              </Button>
            )}
            <Group gap="sm" ml="auto">
              <Button variant="default" onClick={onCancel} disabled={submitting}>
                {t('common.cancel')}
              </Button>
              <Button type="submit" loading={submitting}>
                {submitLabel}
              </Button>
            </Group>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
