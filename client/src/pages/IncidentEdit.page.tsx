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
import { incidentsApi } from '../features/incidents/api';
import { IncidentForm } from '../features/incidents/components/IncidentForm';
import { formOfIncident, saveIncidentRequest } from '../features/incidents/form';
import { useIncidentDetailStore } from '../features/incidents/store';
import { incidentDetailPath, parseIdParam, PATHS } from '../routes/paths';

export default function IncidentEditPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const id = parseIdParam(useParams().id);
  const read = useRead(
    useCallback(async (signal: AbortSignal) => (id === null ? null : (await incidentsApi.get(id, signal)).incident), [id]),
  );
  const back = (to: string) => (
    <Button component={Link} to={to} variant="subtle" leftSection={<IconArrowLeft size={16} />} w="fit-content" px={0}>
      {t('incidents.back')}
    </Button>
  );

  const missing = id === null || (read.error instanceof ApiError && read.error.status === 404) || (read.status === 'ready' && !read.value);
  if (missing) {
    return (
      <Stack gap="lg">
        {back(PATHS.incidents)}
        <ErrorState message={t('incidents.missing')} />
      </Stack>
    );
  }
  if (read.status === 'loading') return <LoadingState />;
  if (read.status === 'error' || !read.value) {
    return <ErrorState message={errorText(t, read.error, t('incidents.loadError'))} onRetry={read.retry} />;
  }
  const incident = read.value;
  return (
    <Stack gap="lg">
      {back(incidentDetailPath(incident.id))}
      <Title order={2}>{t('incidents.editTitle', { title: incident.title })}</Title>
      <IncidentForm
        key={incident.id}
        initial={formOfIncident(incident)}
        creating={false}
        submitLabel={t('common.save')}
        onCancel={() => navigate(incidentDetailPath(incident.id))}
        onSubmit={async (form) => {
          try {
            const answer = await incidentsApi.update(incident.id, saveIncidentRequest(form));
            useIncidentDetailStore.getState().accept(answer.incident);
            notify.success(t('incidents.saved'));
            navigate(incidentDetailPath(incident.id));
            return null;
          } catch (error) {
            return errorText(t, error, t('incidents.saveFailed'));
          }
        }}
      />
    </Stack>
  );
}
