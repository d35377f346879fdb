import { Button, Stack, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import type { UpdateUserRequest } from '@vigil/proto';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { ApiError } from '../api/http';
import { useRead } from '../api/useRead';
import { errorText } from '../api/errors';
import { notify } from '../app/notify';
import { ErrorState, LoadingState } from '../components/PageState/PageState';
import { useAuthStore } from '../features/auth/store';
import { usersApi } from '../features/users/api';
import { ResetTwoFactor } from '../features/users/components/ResetTwoFactor';
import { UserForm, type UserFormValues } from '../features/users/components/UserForm';
import { PATHS } from '../routes/paths';
import NotFoundPage from './NotFound.page';

export default function UserEditPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { id: rawId = '' } = useParams();
  const id = /^\d+$/.test(rawId) ? Number(rawId) : null;
  const me = useAuthStore((state) => state.user);
  const setMe = useAuthStore((state) => state.setUser);
  const read = useRead(useCallback(async (signal: AbortSignal) => (id === null ? null : (await usersApi.get(id, signal)).user), [id]));

  if (id === null) return <NotFoundPage />;
  if (read.status === 'loading') return <LoadingState />;
  if (read.status === 'error') {
    const missing = read.error instanceof ApiError && read.error.status === 404;
    return (
      <ErrorState
        message={missing ? t('userForm.notFound') : errorText(t, read.error, t('userForm.error.load'))}
        onRetry={missing ? undefined : read.retry}
        action={
          <Button component={Link} to={PATHS.users} size="xs" variant="default">
            {t('userForm.backToList')}
          </Button>
        }
      />
    );
  }

  const user = read.value;
  if (!user) return <NotFoundPage />;
  const self = me?.id === user.id;

  // An arrow, not a declaration: it sees the narrowed value above.
  const save = async (values: UserFormValues): Promise<string | null> => {
    // Only what changed is sent: an unchanged role never trips the last-admin rule, an empty password keeps the old one.
    const body: UpdateUserRequest = { username: values.username, email: values.email };
    if (!self && values.role !== user.role) body.role = values.role;
    if (!self && values.password) body.password = values.password;
    try {
      const response = await usersApi.update(user.id, body);
      if (self && response.user) setMe(response.user);
      notify.success(t('userForm.updated'));
      navigate(PATHS.users);
      return null;
    } catch (error) {
      return errorText(t, error, t('userForm.error.update'));
    }
  };

  return (
    <Stack gap="lg">
      <Button component={Link} to={PATHS.users} variant="subtle" leftSection={<IconArrowLeft size={16} />} w="fit-content" px={0}>
        {t('userForm.backToList')}
      </Button>
      <Title order={2}>{t('userForm.editTitle', { username: user.username })}</Title>
      <UserForm user={user} self={self} submitLabel={t('userForm.submitSave')} onSubmit={save} onCancel={() => navigate(PATHS.users)} />
      {!self && me?.role === 'admin' && <ResetTwoFactor user={user} />}
    </Stack>
  );
}
