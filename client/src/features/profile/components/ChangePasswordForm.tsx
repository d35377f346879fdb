import { Button, Group, Paper, PasswordInput, Stack, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../api/errors';
import { notify } from '../../../app/notify';
import { FormError } from '../../../components/FormError/FormError';
import { useAuthStore } from '../../auth/store';
import { checkNewPassword } from '../../auth/validation';
import { usersApi } from '../../users/api';

interface Fields {
  currentPassword: string;
  newPassword: string;
  confirmPassword: string;
}
const EMPTY: Fields = { currentPassword: '', newPassword: '', confirmPassword: '' };

/** Changes the signed-in user's own password; keeps the session alive by storing the token the server returns. */
export function ChangePasswordForm() {
  const { t } = useTranslation();
  const user = useAuthStore((state) => state.user);
  const setToken = useAuthStore((state) => state.setToken);
  const [fields, setFields] = useState<Fields>(EMPTY);
  const [errors, setErrors] = useState<Partial<Fields>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const update = (key: keyof Fields) => (event: React.ChangeEvent<HTMLInputElement>) => {
    const value = event.currentTarget.value;
    setFields((current) => ({ ...current, [key]: value }));
  };

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(null);
    if (!user) {
      setFormError(t('profile.error.notLoggedIn'));
      return;
    }
    const newPasswordCode = checkNewPassword(fields.newPassword);
    const nextErrors: Partial<Fields> = {
      currentPassword: fields.currentPassword ? undefined : t('server.validation.currentPasswordRequired'),
      newPassword: newPasswordCode ? t(`server.${newPasswordCode}`) : undefined,
      confirmPassword: fields.confirmPassword ? undefined : t('validation.confirmRequired'),
    };
    setErrors(nextErrors);
    if (nextErrors.currentPassword || nextErrors.newPassword || nextErrors.confirmPassword) return;
    // Spec section 5: a mismatch shows the error and makes no call.
    if (fields.newPassword !== fields.confirmPassword) {
      setFormError(t('profile.error.passwordMismatch'));
      return;
    }

    setSaving(true);
    try {
      const response = await usersApi.changePassword(user.id, {
        currentPassword: fields.currentPassword,
        newPassword: fields.newPassword,
      });
      // The change revoked every older token, this session's included.
      if (response.token) setToken(response.token);
      setFields(EMPTY);
      notify.success(t('profile.password.success'));
    } catch (error) {
      const text = errorText(t, error, t('profile.error.passwordChange'));
      setFormError(text);
      notify.error(text);
    } finally {
      setSaving(false);
    }
  }

  return (
    <Paper withBorder radius="md" p="lg">
      <form onSubmit={handleSubmit} noValidate data-testid="change-password-form">
        <Stack gap="md">
          <Title order={4}>{t('profile.password.title')}</Title>
          <FormError message={formError} />
          <PasswordInput
            name="currentPassword"
            label={t('profile.password.currentPassword')}
            autoComplete="current-password"
            withAsterisk
            value={fields.currentPassword}
            error={errors.currentPassword}
            onChange={update('currentPassword')}
          />
          <PasswordInput
            name="newPassword"
            label={t('profile.password.newPassword')}
            autoComplete="new-password"
            withAsterisk
            value={fields.newPassword}
            error={errors.newPassword}
            onChange={update('newPassword')}
          />
          <PasswordInput
            name="confirmPassword"
            label={t('profile.password.confirmPassword')}
            autoComplete="new-password"
            withAsterisk
            value={fields.confirmPassword}
            error={errors.confirmPassword}
            onChange={update('confirmPassword')}
          />
          <Group justify="flex-end">
            <Button type="submit" disabled={saving}>
              {saving ? t('common.saving') : t('profile.password.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
