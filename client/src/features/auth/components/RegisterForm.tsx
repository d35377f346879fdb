import { Alert, Anchor, Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { IconInfoCircle, IconLock } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';
import { errorText } from '../../../api/errors';
import { FormError } from '../../../components/FormError/FormError';
import { PATHS } from '../../../routes/paths';
import { authApi } from '../api';
import { useAuthStatus } from '../useAuthStatus';
import { checkEmail, checkNewPassword, checkUsername } from '../validation';
import { AuthCard } from './AuthCard';
import type { LoginRouteState } from './LoginForm';

interface Fields {
  username: string;
  email: string;
  password: string;
  confirmPassword: string;
}
type FieldErrors = Partial<Record<keyof Fields, string>>;

const EMPTY: Fields = { username: '', email: '', password: '', confirmPassword: '' };

export function RegisterForm() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const authStatus = useAuthStatus();
  const [fields, setFields] = useState<Fields>(EMPTY);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const closed = authStatus !== null && !authStatus.needsSetup && !authStatus.allowRegistration;

  const update = (key: keyof Fields) => (event: React.ChangeEvent<HTMLInputElement>) => {
    const value = event.currentTarget.value;
    setFields((current) => ({ ...current, [key]: value }));
  };

  function validate(): FieldErrors {
    const codes = {
      username: checkUsername(fields.username),
      email: checkEmail(fields.email, true),
      password: checkNewPassword(fields.password),
    };
    const result: FieldErrors = {};
    for (const [key, code] of Object.entries(codes) as [keyof Fields, (typeof codes)[keyof typeof codes]][]) {
      if (code) result[key] = t(`server.${code}`);
    }
    if (!fields.confirmPassword) result.confirmPassword = t('validation.confirmRequired');
    return result;
  }

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setFormError(null);
    const nextErrors = validate();
    setErrors(nextErrors);
    if (Object.keys(nextErrors).length > 0) return;
    // Spec section 5: a mismatch shows the message and sends no request.
    if (fields.password !== fields.confirmPassword) {
      setFormError(t('register.error.passwordMismatch'));
      return;
    }

    setSubmitting(true);
    try {
      await authApi.register({ username: fields.username.trim(), email: fields.email.trim(), password: fields.password });
      const state: LoginRouteState = { registered: true };
      navigate(PATHS.login, { state });
    } catch (error) {
      setFormError(errorText(t, error, t('register.error.tryAgain')));
      setSubmitting(false);
    }
  }

  return (
    <AuthCard title={t('register.title')} subtitle={t('register.subtitle')}>
      <form onSubmit={handleSubmit} noValidate>
        <Stack gap="md">
          {authStatus?.needsSetup && (
            <Alert color="blue" variant="light" icon={<IconInfoCircle size={18} />} data-testid="register-first-admin">
              {t('register.firstAdmin')}
            </Alert>
          )}
          {closed && (
            <Alert color="orange" variant="light" icon={<IconLock size={18} />} data-testid="register-closed">
              {t('register.closed')}
            </Alert>
          )}
          <FormError message={formError} />
          <TextInput
            name="username"
            label={t('register.username')}
            placeholder={t('register.usernamePlaceholder')}
            autoComplete="username"
            withAsterisk
            value={fields.username}
            error={errors.username}
            onChange={update('username')}
          />
          <TextInput
            name="email"
            type="email"
            label={t('register.email')}
            placeholder={t('register.emailPlaceholder')}
            autoComplete="email"
            withAsterisk
            value={fields.email}
            error={errors.email}
            onChange={update('email')}
          />
          <PasswordInput
            name="password"
            label={t('register.password')}
            placeholder={t('register.passwordPlaceholder')}
            autoComplete="new-password"
            withAsterisk
            value={fields.password}
            error={errors.password}
            onChange={update('password')}
          />
          <PasswordInput
            name="confirmPassword"
            label={t('register.confirmPassword')}
            placeholder={t('register.confirmPasswordPlaceholder')}
            autoComplete="new-password"
            withAsterisk
            value={fields.confirmPassword}
            error={errors.confirmPassword}
            onChange={update('confirmPassword')}
          />
          <Button type="submit" fullWidth disabled={submitting || closed}>
            {submitting ? t('register.loading') : t('register.submit')}
          </Button>
          <Group justify="center" gap={4}>
            <Text size="sm" c="dimmed">
              {t('register.haveAccount')}
            </Text>
            <Anchor component={Link} to={PATHS.login} size="sm">
              {t('register.login')}
            </Anchor>
          </Group>
        </Stack>
      </form>
    </AuthCard>
  );
}
