import { Anchor, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { TOTP_DIGITS } from '@vigil/proto';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../api/errors';
import { FormError } from '../../../components/FormError/FormError';
import { useAuthStore } from '../store';
import { AuthCard } from './AuthCard';

interface TwoFactorStepProps {
  username: string;
  password: string;
  /** Called once the code was accepted and the session stored. */
  onSignedIn: () => void;
  /** Back to the username and password. */
  onBack: () => void;
}

/** The login page's second step: the authenticator's code, or one of the recovery codes. */
export function TwoFactorStep({ username, password, onSignedIn, onBack }: TwoFactorStepProps) {
  const { t } = useTranslation();
  const login = useAuthStore((state) => state.login);
  const [recovery, setRecovery] = useState(false);
  const [code, setCode] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const typed = code.trim();
    setFieldError(typed ? null : t('login.twoFactor.codeRequired'));
    if (!typed) return;
    setSubmitting(true);
    setFormError(null);
    const result = await login(username, password, typed);
    setSubmitting(false);
    if (result.success) {
      onSignedIn();
      return;
    }
    setCode('');
    setFormError(errorText(t, result.error, t('login.error.tryAgain')));
  }

  function switchMode() {
    setRecovery((current) => !current);
    setCode('');
    setFieldError(null);
  }

  return (
    <AuthCard title={t('login.twoFactor.title')} subtitle={recovery ? t('login.twoFactor.recoveryPrompt') : t('login.twoFactor.prompt')}>
      <form onSubmit={handleSubmit} noValidate data-testid="two-factor-step">
        <Stack gap="md">
          <FormError message={formError} />
          {recovery ? (
            <TextInput
              key="recovery"
              name="recoveryCode"
              label={t('login.twoFactor.recoveryCode')}
              placeholder="xxxx-xxxx-xxxx-xxxx"
              autoComplete="off"
              autoCapitalize="none"
              spellCheck={false}
              data-autofocus
              value={code}
              error={fieldError}
              onChange={(event) => setCode(event.currentTarget.value)}
              data-testid="two-factor-recovery"
            />
          ) : (
            <TextInput
              key="code"
              name="code"
              label={t('login.twoFactor.code')}
              placeholder={'0'.repeat(TOTP_DIGITS)}
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={TOTP_DIGITS + 1}
              data-autofocus
              value={code}
              error={fieldError}
              onChange={(event) => setCode(event.currentTarget.value.replace(/[^\d ]/g, ''))}
              data-testid="two-factor-code"
            />
          )}
          <Button type="submit" fullWidth disabled={submitting} data-testid="two-factor-submit">
            {submitting ? t('login.loading') : t('login.twoFactor.submit')}
          </Button>
          <Group justify="space-between" gap="xs">
            <Anchor component="button" type="button" size="sm" onClick={onBack}>
              {t('login.twoFactor.back')}
            </Anchor>
            <Anchor component="button" type="button" size="sm" onClick={switchMode} data-testid="two-factor-switch">
              {recovery ? t('login.twoFactor.useApp') : t('login.twoFactor.useRecovery')}
            </Anchor>
          </Group>
          <Text size="xs" c="dimmed" ta="center">
            {username}
          </Text>
        </Stack>
      </form>
    </AuthCard>
  );
}
