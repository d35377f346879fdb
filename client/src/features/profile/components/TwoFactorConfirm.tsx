import { Button, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../api/errors';
import { FormError } from '../../../components/FormError/FormError';

interface TwoFactorConfirmProps {
  help: string;
  submitLabel: string;
  /** Ask for the password too (disabling). */
  withPassword: boolean;
  danger?: boolean;
  onConfirm: (code: string, password: string) => Promise<void>;
  onCancel: () => void;
  testId: string;
}

/** Confirms a change to two-factor sign-in with a code from the app or a recovery code (and the password to disable). */
export function TwoFactorConfirm({ help, submitLabel, withPassword, danger, onConfirm, onCancel, testId }: TwoFactorConfirmProps) {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (withPassword && !password) {
      setError(t('server.validation.currentPasswordRequired'));
      return;
    }
    if (!code.trim()) {
      setError(t('server.twoFactor.codeRequired'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await onConfirm(code.trim(), password);
    } catch (failure) {
      setError(errorText(t, failure, t('profile.twoFactor.error')));
      setCode('');
      setBusy(false);
    }
  }

  return (
    <form onSubmit={handleSubmit} noValidate data-testid={testId}>
      <Stack gap="sm">
        <Text size="sm">{help}</Text>
        <FormError message={error} />
        {withPassword && (
          <PasswordInput
            name="password"
            label={t('profile.twoFactor.password')}
            autoComplete="current-password"
            maw={320}
            value={password}
            onChange={(event) => setPassword(event.currentTarget.value)}
            data-testid={`${testId}-password`}
          />
        )}
        <TextInput
          name="code"
          label={t('profile.twoFactor.codeOrRecovery')}
          autoComplete="one-time-code"
          autoCapitalize="none"
          spellCheck={false}
          maw={320}
          value={code}
          onChange={(event) => setCode(event.currentTarget.value)}
          data-testid={`${testId}-code`}
        />
        <Group gap="xs">
          <Button type="submit" color={danger ? 'red' : undefined} loading={busy} data-testid={`${testId}-submit`}>
            {submitLabel}
          </Button>
          <Button variant="default" onClick={onCancel} disabled={busy}>
            {t('profile.twoFactor.cancel')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
