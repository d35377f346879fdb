import { Alert, Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { ALERT_NOTE_MAX, type AlertDto } from '@vigil/proto';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../api/errors';
import { ApiError } from '../../../api/http';
import { notify } from '../../../app/notify';
import { selectCanWrite, useAuthStore } from '../../auth/store';
import { alertsApi } from '../api';
import { takeAlert } from '../store';
import { AckInfo } from './AckInfo';

interface AckButtonProps {
  alert: AlertDto;
  size?: 'xs' | 'sm';
}

/**
 * Acknowledges an open alert with an optional note, which stops its reminders and escalation. The one button of the
 * alerts page, the detail pages, the dashboard feed and the notification history; a viewer is not offered it.
 */
export function AckButton({ alert, size = 'xs' }: AckButtonProps) {
  const { t } = useTranslation();
  const canWrite = useAuthStore(selectCanWrite);
  const [opened, setOpened] = useState(false);
  const [note, setNote] = useState('');
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  // The dialog stays open after a refusal, showing the acknowledgement that came first.
  if (!canWrite || (alert.state !== 'open' && !opened)) return null;

  const close = () => {
    setOpened(false);
    setFailure(null);
    setNote('');
  };

  async function acknowledge() {
    setSaving(true);
    setFailure(null);
    try {
      const answer = await alertsApi.acknowledge(alert.id, note.trim() ? { note: note.trim() } : {});
      takeAlert(answer.alert);
      notify.success(t('alerts.ack.done', { name: alert.target_name }));
      close();
    } catch (error) {
      setFailure(errorText(t, error, t('alerts.ack.failed')));
      // Acknowledged by someone else or closed meanwhile: show the alert as it stands, with the first acknowledgement.
      if (error instanceof ApiError && error.status === 409)
        void alertsApi.get(alert.id).then(
          (read) => takeAlert(read.alert),
          () => undefined,
        );
    } finally {
      setSaving(false);
    }
  }

  return (
    <>
      {alert.state === 'open' && (
        <Button
          size={size}
          variant="light"
          color="orange"
          leftSection={<IconCheck size={14} />}
          onClick={() => setOpened(true)}
          data-testid={`alert-ack-${alert.id}`}
        >
          {t('alerts.ack.button')}
        </Button>
      )}
      <Modal opened={opened} onClose={close} title={t('alerts.ack.title')} centered data-testid="alert-ack-dialog">
        <Stack gap="md">
          <Text size="sm">{t('alerts.ack.hint', { name: alert.target_name })}</Text>
          <Textarea
            label={t('alerts.ack.note')}
            placeholder={t('alerts.ack.notePlaceholder')}
            value={note}
            onChange={(event) => setNote(event.currentTarget.value)}
            maxLength={ALERT_NOTE_MAX}
            autosize
            minRows={2}
            maxRows={6}
            data-testid="alert-ack-note"
          />
          {failure && (
            <Alert color="red" variant="light" role="alert" data-testid="alert-ack-error">
              {failure}
            </Alert>
          )}
          {alert.acknowledged_at && <AckInfo alert={alert} />}
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close} disabled={saving}>
              {t('common.cancel')}
            </Button>
            <Button
              color="orange"
              onClick={() => void acknowledge()}
              loading={saving}
              disabled={alert.state !== 'open'}
              data-testid="alert-ack-confirm"
            >
              {t('alerts.ack.confirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
