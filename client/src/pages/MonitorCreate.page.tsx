import { Button, Stack, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { notify } from '../app/notify';
import { type MonitorBody, monitorsApi } from '../features/monitors/api';
import { MonitorForm } from '../features/monitors/components/MonitorForm';
import { defaultFormValues } from '../features/monitors/form';
import { saveFailure, type SubmitFailure } from '../features/monitors/submitFailure';
import { monitorDetailPath, PATHS } from '../routes/paths';

export default function MonitorCreatePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [initial] = useState(defaultFormValues);

  async function create(request: MonitorBody): Promise<SubmitFailure | null> {
    try {
      const { monitor } = await monitorsApi.create(request);
      notify.success(t('monitor.form.created'));
      // A push monitor's URL is only known now: its page shows it, with examples to copy.
      navigate(monitor.type === 'push' ? monitorDetailPath(monitor.id) : PATHS.monitors);
      return null;
    } catch (error) {
      return saveFailure(t, t('monitor.form.createFailed'), error);
    }
  }

  return (
    <Stack gap="lg">
      <Button component={Link} to={PATHS.monitors} variant="subtle" leftSection={<IconArrowLeft size={16} />} w="fit-content" px={0}>
        {t('monitor.form.backToList')}
      </Button>
      <Title order={2}>{t('monitor.form.createTitle')}</Title>
      <MonitorForm
        initial={initial}
        submitLabel={t('monitor.form.submitCreate')}
        onSubmit={create}
        onCancel={() => navigate(PATHS.monitors)}
      />
    </Stack>
  );
}
