import { Button, Group, Paper, Stack, TextInput, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../api/errors';
import { notify } from '../../../app/notify';
import { FormError } from '../../../components/FormError/FormError';
import { useAuthStore } from '../../auth/store';
import { checkEmail, checkUsername } from '../../auth/validation';
import { usersApi } from '../../users/api';

/** The signed-in user's own username (required) and email (optional), saved with their own id (spec section 6). */
export function ProfileInfoForm() {
  const { t } = useTranslation();
  const user = useAuthStore((state) => state.user);
  const setUser = useAuthStore((state) => state.setUser);
  const [username, setUsername] = useState(user?.username ?? '');
  const [email, setEmail] = useState(user?.email ?? '');
  const [errors, setErrors] = useState<{ username?: string; email?: string }>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(null);
    if (!user) {
      setFormError(t('profile.error.notLoggedIn'));
      return;
    }
    const usernameCode = checkUsername(username);
    const emailCode = checkEmail(email, false);
    setErrors({
      username: usernameCode ? t(`server.${usernameCode}`) : undefined,
      email: emailCode ? t(`server.${emailCode}`) : undefined,
    });
    if (usernameCode || emailCode) return;

    setSaving(true);
    try {
      const response = await usersApi.update(user.id, { username: username.trim(), email: email.trim() || null });
      if (response.user) setUser(response.user);
      notify.success(t('profile.info.success'));
    } catch (error) {
      const text = errorText(t, error, t('profile.error.update'));
      setFormError(text);
      notify.error(text);
    } finally {
      setSaving(false);
    }
  }

  return (
    <Paper withBorder radius="md" p="lg">
      <form onSubmit={handleSubmit} noValidate data-testid="profile-info-form">
        <Stack gap="md">
          <Title order={4}>{t('profile.info.title')}</Title>
          <FormError message={formError} />
          <TextInput
            name="username"
            label={t('profile.info.username')}
            autoComplete="username"
            withAsterisk
            value={username}
            error={errors.username}
            onChange={(event) => setUsername(event.currentTarget.value)}
          />
          <TextInput
            name="email"
            type="email"
            label={t('profile.info.email')}
            placeholder={t('profile.info.emailPlaceholder')}
            autoComplete="email"
            value={email}
            error={errors.email}
            onChange={(event) => setEmail(event.currentTarget.value)}
          />
          <Group justify="flex-end">
            <Button type="submit" disabled={saving}>
              {saving ? t('common.saving') : t('profile.info.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
