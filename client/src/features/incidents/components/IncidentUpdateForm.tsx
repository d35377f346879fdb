import { Button, Group, Paper, Select, Stack, Text, Textarea } from '@mantine/core';
import { IconSend } from '@tabler/icons-react';
import { INCIDENT_LIMITS, INCIDENT_STATUSES, type IncidentDto, type IncidentStatus } from '@vigil/proto';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../api/errors';
import { notify } from '../../../app/notify';
import { incidentsApi } from '../api';

/** Posts the next update of the timeline: a status and a Markdown message. */
export function IncidentUpdateForm({ incident, onPosted }: { incident: IncidentDto; onPosted: (incident: IncidentDto) => void }) {
  const { t } = useTranslation();
  const [status, setStatus] = useState<IncidentStatus>(incident.status);
  const [message, setMessage] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [posting, setPosting] = useState(false);

  async function post(event: FormEvent) {
    event.preventDefault();
    if (message.trim() === '') {
      setError(t('incidents.validation.messageRequired'));
      return;
    }
    setPosting(true);
    setError(null);
    try {
      const answer = await incidentsApi.addUpdate(incident.id, { status, message });
      setMessage('');
      onPosted(answer.incident);
      notify.success(t('incidents.update.posted'));
    } catch (failure) {
      setError(errorText(t, failure, t('incidents.update.failed')));
    } finally {
      setPosting(false);
    }
  }

  return (
    <Paper withBorder p="md" radius="md">
      <form onSubmit={(event) => void post(event)} noValidate data-testid="incident-update-form">
        <Stack gap="sm">
          <Text fw={600}>{t('incidents.update.title')}</Text>
          <Select
            label={t('incidents.form.status')}
            data={INCIDENT_STATUSES.map((value) => ({ value, label: t(`incidents.statuses.${value}`) }))}
            value={status}
            onChange={(value) => value && setStatus(value as IncidentStatus)}
            allowDeselect={false}
            maw={260}
            comboboxProps={{ withinPortal: true }}
            data-testid="incident-update-status"
          />
          <Textarea
            label={t('incidents.form.message')}
            description={t('incidents.form.messageDescription')}
            value={message}
            maxLength={INCIDENT_LIMITS.messageMax}
            onChange={(event) => setMessage(event.currentTarget.value)}
            error={error}
            autosize
            minRows={3}
            maxRows={12}
            data-testid="incident-update-message"
          />
          <Group justify="flex-end">
            <Button type="submit" loading={posting} leftSection={<IconSend size={16} />} data-testid="incident-update-post">
              {t('incidents.update.post')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
