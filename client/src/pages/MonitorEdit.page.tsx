import { Button, Stack, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import type { MonitorDto, MonitorRequest } from '@vigil/proto';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { errorText, failureWithReason } from '../api/errors';
import { ApiError } from '../api/http';
import { notify } from '../app/notify';
import { ErrorState, LoadingState } from '../components/PageState/PageState';
import { monitorsApi } from '../features/monitors/api';
import { MissingMonitor } from '../features/monitors/components/MissingMonitor';
import { MonitorForm } from '../features/monitors/components/MonitorForm';
import { formValuesFromMonitor } from '../features/monitors/form';
import { monitorDetailPath, parseIdParam } from '../routes/paths';

type LoadState =
  { status: 'loading' } | { status: 'ready'; monitor: MonitorDto } | { status: 'missing' } | { status: 'error'; error: unknown };

export default function MonitorEditPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const id = parseIdParam(useParams().id);
  const [state, setState] = useState<LoadState>({ status: 'loading' });

  const load = useCallback(() => {
    if (id === null) return;
    setState({ status: 'loading' });
    monitorsApi
      .get(id)
      .then((response) => setState({ status: 'ready', monitor: response.monitor }))
      .catch((error: unknown) =>
        setState(error instanceof ApiError && error.status === 404 ? { status: 'missing' } : { status: 'error', error }),
      );
  }, [id]);

  useEffect(load, [load]);

  if (id === null || state.status === 'missing') return <MissingMonitor />;
  if (state.status === 'loading') return <LoadingState />;
  if (state.status === 'error') return <ErrorState message={errorText(t, state.error, t('monitor.loadError'))} onRetry={load} />;

  const monitor = state.monitor;

  async function save(request: MonitorRequest): Promise<string | null> {
    try {
      await monitorsApi.update(monitor.id, request);
      notify.success(t('monitor.form.updated'));
      navigate(monitorDetailPath(monitor.id));
      return null;
    } catch (error) {
      return failureWithReason(t, t('monitor.form.updateFailed'), error);
    }
  }

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
      <MonitorForm
        // A fresh form per loaded monitor, so its fields start from the stored values.
        key={monitor.id}
        initial={formValuesFromMonitor(monitor)}
        submitLabel={t('monitor.form.submitSave')}
        onSubmit={save}
        onCancel={() => navigate(monitorDetailPath(monitor.id))}
      />
    </Stack>
  );
}
