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
import { maintenanceApi } from '../features/maintenance/api';
import { MaintenanceForm } from '../features/maintenance/components/MaintenanceForm';
import { formOfMaintenance, maintenanceRequest, newMaintenanceForm } from '../features/maintenance/form';
import { liveCache } from '../live/cache';
import { parseIdParam, PATHS } from '../routes/paths';

/** `/maintenance/create` and `/maintenance/:id/edit`: the window's form, once the saved window has been read. */
export default function MaintenanceEditPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const raw = useParams().id;
  const creating = raw === undefined;
  const id = parseIdParam(raw);
  const read = useRead(
    useCallback(async (signal: AbortSignal) => (id === null ? null : (await maintenanceApi.get(id, signal)).maintenance), [id]),
  );
  const back = (
    <Button component={Link} to={PATHS.maintenance} variant="subtle" leftSection={<IconArrowLeft size={16} />} w="fit-content" px={0}>
      {t('maintenance.back')}
    </Button>
  );

  if (!creating && (id === null || (read.error instanceof ApiError && read.error.status === 404))) {
    return (
      <Stack gap="lg">
        {back}
        <ErrorState message={t('maintenance.missing')} />
      </Stack>
    );
  }
  if (read.status === 'loading') return <LoadingState />;
  if (read.status === 'error') return <ErrorState message={errorText(t, read.error, t('maintenance.loadError'))} onRetry={read.retry} />;
  const saved = read.value ?? null;

  return (
    <Stack gap="lg">
      {back}
      <Title order={2}>{saved ? t('maintenance.editTitle', { title: saved.title }) : t('maintenance.createTitle')}</Title>
      <MaintenanceForm
        key={saved?.id ?? 'new'}
        initial={saved ? formOfMaintenance(saved) : newMaintenanceForm()}
        submitLabel={saved ? t('common.save') : t('common.create')}
        onCancel={() => navigate(PATHS.maintenance)}
        onSubmit={async (form) => {
          try {
            const body = maintenanceRequest(form);
            const answer = saved ? await maintenanceApi.update(saved.id, body) : await maintenanceApi.create(body);
            liveCache.maintenance.write([answer.maintenance]);
            notify.success(saved ? t('maintenance.saved') : t('maintenance.created'));
            navigate(PATHS.maintenance);
            return null;
          } catch (error) {
            return errorText(t, error, t('maintenance.saveFailed'));
          }
        }}
      />
    </Stack>
  );
}
