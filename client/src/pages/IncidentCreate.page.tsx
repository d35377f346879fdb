import { Button, Stack, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { errorText } from '../api/errors';
import { notify } from '../app/notify';
import { incidentsApi } from '../features/incidents/api';
import { IncidentForm } from '../features/incidents/components/IncidentForm';
import { createIncidentRequest, newIncidentForm } from '../features/incidents/form';
import { useIncidentDetailStore } from '../features/incidents/store';
import { incidentDetailPath, PATHS } from '../routes/paths';

export default function IncidentCreatePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Stack gap="lg">
      <Button component={Link} to={PATHS.incidents} variant="subtle" leftSection={<IconArrowLeft size={16} />} w="fit-content" px={0}>
        {t('incidents.back')}
      </Button>
      <Title order={2}>{t('incidents.createTitle')}</Title>
      <IncidentForm
        initial={newIncidentForm()}
        creating
        submitLabel={t('common.create')}
        onCancel={() => navigate(PATHS.incidents)}
        onSubmit={async (form) => {
          try {
            const answer = await incidentsApi.create(createIncidentRequest(form));
            useIncidentDetailStore.getState().accept(answer.incident);
            notify.success(t('incidents.created'));
            navigate(incidentDetailPath(answer.incident.id));
            return null;
          } catch (error) {
            return errorText(t, error, t('incidents.saveFailed'));
          }
        }}
      />
    </Stack>
  );
}
