import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import type { MonitorDto } from '@vigil/proto';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../api/errors';

interface DeleteMonitorModalProps {
  monitor: MonitorDto | null;
  onClose: () => void;
  /** Deletes; a rejection is shown in the dialog, which stays open to retry or cancel. */
  onConfirm: (monitor: MonitorDto) => Promise<void>;
}

/** Confirmation before a monitor is deleted, warning that it cannot be undone (spec section 2). */
export function DeleteMonitorModal({ monitor, onClose, onConfirm }: DeleteMonitorModalProps) {
  const { t } = useTranslation();
  const [deleting, setDeleting] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => setFailure(null), [monitor]);

  async function confirm() {
    if (!monitor) return;
    setDeleting(true);
    setFailure(null);
    try {
      await onConfirm(monitor);
    } catch (error) {
      setFailure(errorText(t, error, t('common.error.unknown')));
    } finally {
      setDeleting(false);
    }
  }

  return (
    <Modal opened={monitor !== null} onClose={onClose} title={t('monitors.delete.title')} centered>
      <Stack gap="md">
        <Text size="sm">{t('monitors.delete.message', { name: monitor?.name ?? '' })}</Text>
        {failure && (
          <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} title={t('monitors.delete.failed')} role="alert" data-testid="delete-error">
            {failure}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={deleting}>
            {t('common.cancel')}
          </Button>
          <Button color="red" onClick={() => void confirm()} loading={deleting} data-testid="confirm-delete">
            {t('monitors.delete.confirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
