import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import type { AgentDto } from '@vigil/proto';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../api/errors';

interface DeleteAgentModalProps {
  agent: AgentDto | null;
  onClose: () => void;
  /** Deletes; a rejection is shown in the dialog, which stays open to retry or cancel. */
  onConfirm: (agent: AgentDto) => Promise<void>;
}

/** Confirmation before an agent is deleted (spec section 5), warning that it cannot be undone. */
export function DeleteAgentModal({ agent, onClose, onConfirm }: DeleteAgentModalProps) {
  const { t } = useTranslation();
  const [deleting, setDeleting] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  useEffect(() => setFailure(null), [agent]);

  async function confirm() {
    if (!agent) return;
    setDeleting(true);
    setFailure(null);
    try {
      await onConfirm(agent);
    } catch (error) {
      setFailure(errorText(t, error, t('common.error.unknown')));
    } finally {
      setDeleting(false);
    }
  }

  return (
    <Modal opened={agent !== null} onClose={onClose} title={t('agents.delete.title')} centered>
      <Stack gap="md">
        <Text size="sm">{t('agents.delete.message', { name: agent?.name ?? '' })}</Text>
        {failure && (
          <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} title={t('agents.delete.failed')} role="alert" data-testid="delete-error">
            {failure}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={deleting}>
            {t('common.cancel')}
          </Button>
          <Button color="red" onClick={() => void confirm()} loading={deleting} data-testid="confirm-delete">
            {t('agents.delete.confirm')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
