import { Button, Stack, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { errorText } from '../api/errors';
import { ApiError } from '../api/http';
import { useRead } from '../api/useRead';
import { notify } from '../app/notify';
import { ErrorState, LoadingState } from '../components/PageState/PageState';
import { type MonitorBody, monitorsApi } from '../features/monitors/api';
import { MissingMonitor } from '../features/monitors/components/MissingMonitor';
import { MonitorForm } from '../features/monitors/components/MonitorForm';
import { PushUrlPanel } from '../features/monitors/components/PushUrlPanel';
import { formValuesFromMonitor } from '../features/monitors/form';
import { saveFailure, type SubmitFailure } from '../features/monitors/submitFailure';
import { monitorDetailPath, parseIdParam } from '../routes/paths';

export default function MonitorEditPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const id = parseIdParam(useParams().id);
  const read = useRead(
    useCallback(async (signal: AbortSignal) => (id === null ? null : (await monitorsApi.get(id, signal)).monitor), [id]),
  );

  const missing = read.error instanceof ApiError && read.error.status === 404;
  if (id === null || missing) return <MissingMonitor />;
  if (read.status === 'loading') return <LoadingState />;
  if (read.status === 'error') return <ErrorState message={errorText(t, read.error, t('monitor.loadError'))} onRetry={read.retry} />;
  const monitor = read.value;
  if (!monitor) return <MissingMonitor />;

  // An arrow, not a declaration: it sees the narrowed value above.
  const save = async (request: MonitorBody): Promise<SubmitFailure | null> => {
    try {
      await monitorsApi.update(monitor.id, request);
      notify.success(t('monitor.form.updated'));
      navigate(monitorDetailPath(monitor.id));
      return null;
    } catch (error) {
      return saveFailure(t, t('monitor.form.updateFailed'), error);
    }
  };

  return (
    <Stack gap="lg">
      <Button
        component={Link}
        to={monitorDetailPath(monitor.id)}
        variant="subtle"
        leftSection={<IconArrowLeft size={16} />}
        w="fit-content"
        px={0}
      >
        {t('monitor.form.backToMonitor')}
      </Button>
      <Title order={2} data-testid="monitor-edit-title">
        {t('monitor.form.editTitle', { name: monitor.name })}
      </Title>
      {monitor.type === 'push' && monitor.push_token && <PushUrlPanel token={monitor.push_token} interval={monitor.interval} />}
      <MonitorForm
        // A fresh form per loaded monitor, so its fields start from the stored values.
        key={monitor.id}
        editing
        monitorId={monitor.id}
        initial={formValuesFromMonitor(monitor)}
        submitLabel={t('monitor.form.submitSave')}
        onSubmit={save}
        onCancel={() => navigate(monitorDetailPath(monitor.id))}
      />
    </Stack>
  );
}
