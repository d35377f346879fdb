import { Alert, Anchor, Button, Checkbox, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { errorText } from '../../../api/errors';
import { FormError, FormSuccess } from '../../../components/FormError/FormError';
import { PATHS } from '../../../routes/paths';
import { useAuthStore } from '../store';
import { isTwoFactorChallenge } from '../twoFactor';
import { useAuthStatus } from '../useAuthStatus';
import { AuthCard } from './AuthCard';
import { SsoButtons } from './SsoButtons';
import { TwoFactorStep } from './TwoFactorStep';

/** Where "remember me" keeps the last username, so the next sign-in starts with it filled in. */
export const REMEMBERED_USERNAME_KEY = 'rememberedUsername';

/** Route state the register page hands over after a successful registration. */
export interface LoginRouteState {
  registered?: boolean;
}

export function LoginForm() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const login = useAuthStore((state) => state.login);
  const authStatus = useAuthStatus();
  const [username, setUsername] = useState(() => localStorage.getItem(REMEMBERED_USERNAME_KEY) ?? '');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(() => localStorage.getItem(REMEMBERED_USERNAME_KEY) !== null);
  const [errors, setErrors] = useState<{ username?: string; password?: string }>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  // The password was right and the account has two-factor sign-in: the form asks for the code next.
  const [codeStep, setCodeStep] = useState(false);
  const registered = (location.state as LoginRouteState | null)?.registered === true;
  const canRegister = authStatus === null || authStatus.needsSetup || authStatus.allowRegistration;

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const nextErrors = {
      username: username.trim() ? undefined : t('server.validation.usernameRequired'),
      password: password ? undefined : t('server.validation.passwordRequired'),
    };
    setErrors(nextErrors);
    if (nextErrors.username || nextErrors.password) return;

    setSubmitting(true);
    setFormError(null);
    const result = await login(username.trim(), password);
    setSubmitting(false);
    if (!result.success) {
      if (isTwoFactorChallenge(result.error)) setCodeStep(true);
      else setFormError(errorText(t, result.error, t('login.error.tryAgain')));
      return;
    }
    signedIn();
  }

  function signedIn() {
    if (remember) localStorage.setItem(REMEMBERED_USERNAME_KEY, username.trim());
    else localStorage.removeItem(REMEMBERED_USERNAME_KEY);
    navigate(PATHS.dashboard, { replace: true });
  }

  if (codeStep) {
    return <TwoFactorStep username={username.trim()} password={password} onSignedIn={signedIn} onBack={() => setCodeStep(false)} />;
  }

  return (
    <AuthCard title={t('login.title')} subtitle={t('login.subtitle')}>
      <form onSubmit={handleSubmit} noValidate>
        <Stack gap="md">
          {registered && <FormSuccess message={t('register.success')} />}
          {authStatus?.needsSetup && (
            <Alert color="blue" variant="light" icon={<IconInfoCircle size={18} />}>
              {t('login.needsSetup')}{' '}
              <Anchor component={Link} to={PATHS.register} size="sm">
                {t('login.register')}
              </Anchor>
            </Alert>
          )}
          <FormError message={formError} />
          <TextInput
            name="username"
            label={t('login.username')}
            placeholder={t('login.usernamePlaceholder')}
            autoComplete="username"
            withAsterisk
            value={username}
            error={errors.username}
            onChange={(event) => setUsername(event.currentTarget.value)}
          />
          <PasswordInput
            name="password"
            label={t('login.password')}
            placeholder={t('login.passwordPlaceholder')}
            autoComplete="current-password"
            withAsterisk
            value={password}
            error={errors.password}
            onChange={(event) => setPassword(event.currentTarget.value)}
          />
          <Checkbox
            name="rememberMe"
            label={t('login.rememberMe')}
            checked={remember}
            onChange={(event) => setRemember(event.currentTarget.checked)}
          />
          <Button type="submit" fullWidth disabled={submitting}>
            {submitting ? t('login.loading') : t('login.submit')}
          </Button>
          <SsoButtons />
          {canRegister && (
            <Group justify="center" gap={4}>
              <Text size="sm" c="dimmed">
                {t('login.noAccount')}
              </Text>
              <Anchor component={Link} to={PATHS.register} size="sm" data-testid="register-link">
                {t('login.register')}
              </Anchor>
            </Group>
          )}
        </Stack>
      </form>
    </AuthCard>
  );
}
