import { Button, Group, Modal, Text } from '@mantine/core';
import type { UserDto } from '@vigil/proto';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../api/errors';
import { notify } from '../../../app/notify';
import { useUsersStore } from '../store';

/** Confirmation before a user is deleted (spec section 5: deleting requires confirmation). */
export function DeleteUserModal({ user, onClose }: { user: UserDto | null; onClose: () => void }) {
  const { t } = useTranslation();
  const remove = useUsersStore((state) => state.remove);
  const [deleting, setDeleting] = useState(false);

  async function confirm() {
    if (!user) return;
    setDeleting(true);
    try {
      await remove(user.id);
      notify.success(t('users.deleted'));
      onClose();
    } catch (error) {
      notify.error(errorText(t, error, t('users.error.delete')));
    } finally {
      setDeleting(false);
    }
  }

  return (
    <Modal opened={user !== null} onClose={onClose} title={t('users.confirmDelete.title')} centered>
      <Text size="sm">{t('users.confirmDelete.message', { username: user?.username ?? '' })}</Text>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={onClose} disabled={deleting}>
          {t('common.cancel')}
        </Button>
        <Button color="red" onClick={() => void confirm()} loading={deleting} data-testid="confirm-delete">
          {t('users.confirmDelete.confirm')}
        </Button>
      </Group>
    </Modal>
  );
}
