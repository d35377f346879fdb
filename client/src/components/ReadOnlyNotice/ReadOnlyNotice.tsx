import { Alert } from '@mantine/core';
import { IconEye } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { selectCanWrite, useAuthStore } from '../../features/auth/store';

/** Tells a `viewer` why a screen of settings offers no save: it renders nothing for roles that may change things. */
export function ReadOnlyNotice() {
  const { t } = useTranslation();
  const canWrite = useAuthStore(selectCanWrite);
  if (canWrite) return null;
  return (
    <Alert color="gray" variant="light" icon={<IconEye size={18} />} data-testid="read-only-notice">
      {t('common.readOnly')}
    </Alert>
  );
}
