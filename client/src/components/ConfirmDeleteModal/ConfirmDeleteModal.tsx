import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../api/errors';

export interface ConfirmDeleteTexts {
  title: string;
  /** The question, naming the item. */
  message: (name: string) => string;
  failed: string;
  confirm: string;
}

interface ConfirmDeleteModalProps<T extends { name: string }> {
  /** The item to delete; null keeps the dialog closed. */
  item: T | null;
  texts: ConfirmDeleteTexts;
  onClose: () => void;
  /** Deletes; a rejection is shown in the dialog, which stays open to retry or cancel. */
  onConfirm: (item: T) => Promise<void>;
}

/** Confirmation before something is deleted or revoked (spec section 5: monitors, agents; keys, links), with the failure shown in place. */
export function ConfirmDeleteModal<T extends { name: string }>({ item, texts, onClose, onConfirm }: ConfirmDeleteModalProps<T>) {
  const { t } = useTranslation();
  const [deleting, setDeleting] = useState(false);
  // A failure belongs to the item it was about: the dialog opened for another item shows none.
  const [failed, setFailed] = useState<{ item: T; text: string } | null>(null);
  const failure = failed && failed.item === item ? failed.text : null;

  async function confirm() {
    if (!item) return;
    setDeleting(true);
    setFailed(null);
    try {
      await onConfirm(item);
    } catch (error) {
      setFailed({ item, text: errorText(t, error, t('common.error.unknown')) });
    } finally {
      setDeleting(false);
    }
  }

  return (
    <Modal opened={item !== null} onClose={onClose} title={texts.title} centered>
      <Stack gap="md">
        <Text size="sm">{texts.message(item?.name ?? '')}</Text>
        {failure && (
          <Alert
            color="red"
            variant="light"
            icon={<IconAlertCircle size={18} />}
            title={texts.failed}
            role="alert"
            data-testid="delete-error"
          >
            {failure}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={deleting}>
            {t('common.cancel')}
          </Button>
          <Button color="red" onClick={() => void confirm()} loading={deleting} data-testid="confirm-delete">
            {texts.confirm}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
