import { Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { errorText } from '../api/errors';
import { notify } from '../app/notify';
import { usersApi } from '../features/users/api';
import { UserForm, type UserFormValues } from '../features/users/components/UserForm';
import { PATHS } from '../routes/paths';

export default function UserCreatePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();

  async function create(values: UserFormValues): Promise<string | null> {
    try {
      await usersApi.create({ username: values.username, email: values.email, role: values.role, password: values.password });
      notify.success(t('userForm.created'));
      navigate(PATHS.users);
      return null;
    } catch (error) {
      return errorText(t, error, t('userForm.error.create'));
    }
  }

  return (
    <Stack gap="lg">
      <Title order={2}>{t('userForm.createTitle')}</Title>
      <UserForm submitLabel={t('userForm.submitCreate')} onSubmit={create} onCancel={() => navigate(PATHS.users)} />
    </Stack>
  );
}
