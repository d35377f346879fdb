import { Button } from '@mantine/core';
import { IconShieldOff } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../../app/notify';
import { ConfirmDeleteModal } from '../../../components/ConfirmDeleteModal/ConfirmDeleteModal';
import { usersApi } from '../api';

/** An admin turns off another user's two-factor sign-in (lost phone and recovery codes), after confirming. */
export function ResetTwoFactor({ user }: { user: { id: number; username: string } }) {
  const { t } = useTranslation();
  const [confirming, setConfirming] = useState<{ name: string } | null>(null);
  return (
    <>
      <Button
        variant="light"
        color="orange"
        w="fit-content"
        leftSection={<IconShieldOff size={16} />}
        onClick={() => setConfirming({ name: user.username })}
        data-testid="user-reset-2fa"
      >
        {t('users.resetTwoFactor.button')}
      </Button>
      <ConfirmDeleteModal
        item={confirming}
        texts={{
          title: t('users.resetTwoFactor.title'),
          message: (name) => t('users.resetTwoFactor.message', { name }),
          failed: t('users.resetTwoFactor.failed'),
          confirm: t('users.resetTwoFactor.confirm'),
        }}
        onClose={() => setConfirming(null)}
        onConfirm={async () => {
          await usersApi.resetTwoFactor(user.id);
          setConfirming(null);
          notify.success(t('server.twoFactor.reset'));
        }}
      />
    </>
  );
}
