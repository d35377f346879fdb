import { Button, Stack, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import type { UpdateUserRequest, UserDto } from '@vigil/proto';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { ApiError } from '../api/http';
import { errorText } from '../api/errors';
import { notify } from '../app/notify';
import { ErrorState, LoadingState } from '../components/PageState/PageState';
import { useAuthStore } from '../features/auth/store';
import { usersApi } from '../features/users/api';
import { UserForm, type UserFormValues } from '../features/users/components/UserForm';
import { PATHS } from '../routes/paths';
import NotFoundPage from './NotFound.page';

type LoadState = { status: 'loading' } | { status: 'ready'; user: UserDto } | { status: 'error'; error: unknown };

export default function UserEditPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { id: rawId = '' } = useParams();
  const id = /^\d+$/.test(rawId) ? Number(rawId) : null;
  const me = useAuthStore((state) => state.user);
  const setMe = useAuthStore((state) => state.setUser);
  const [state, setState] = useState<LoadState>({ status: 'loading' });

  const load = useCallback(() => {
    if (id === null) return;
    setState({ status: 'loading' });
    usersApi
      .get(id)
      .then((response) => setState({ status: 'ready', user: response.user }))
      .catch((error: unknown) => setState({ status: 'error', error }));
  }, [id]);

  useEffect(load, [load]);

  if (id === null) return <NotFoundPage />;
  if (state.status === 'loading') return <LoadingState />;
  if (state.status === 'error') {
    const missing = state.error instanceof ApiError && state.error.status === 404;
    return (
      <ErrorState
        message={missing ? t('userForm.notFound') : errorText(t, state.error, t('userForm.error.load'))}
        onRetry={missing ? undefined : load}
        action={
          <Button component={Link} to={PATHS.users} size="xs" variant="default">
            {t('userForm.backToList')}
          </Button>
        }
      />
    );
  }

  const user = state.user;
  const self = me?.id === user.id;

  async function save(values: UserFormValues): Promise<string | null> {
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
  }

  return (
    <Stack gap="lg">
      <Button component={Link} to={PATHS.users} variant="subtle" leftSection={<IconArrowLeft size={16} />} w="fit-content" px={0}>
        {t('userForm.backToList')}
      </Button>
      <Title order={2}>{t('userForm.editTitle', { username: user.username })}</Title>
      <UserForm user={user} self={self} submitLabel={t('userForm.submitSave')} onSubmit={save} onCancel={() => navigate(PATHS.users)} />
    </Stack>
  );
}
