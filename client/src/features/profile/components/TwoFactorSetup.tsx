import { Button, Code, Group, Image, Stack, Text, TextInput } from '@mantine/core';
import { TOTP_DIGITS, type TwoFactorSetupResponse } from '@vigil/proto';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../api/errors';
import { CopyValueButton } from '../../../components/CopyValueButton/CopyValueButton';
import { FormError } from '../../../components/FormError/FormError';
import { qrCodeImage, twoFactorApi } from '../twoFactor';

interface TwoFactorSetupProps {
  pending: TwoFactorSetupResponse;
  /** The code was right: two-factor sign-in is on, with these recovery codes. */
  onEnabled: (recoveryCodes: string[]) => void;
  onCancel: () => void;
}

/** Scan (or type) the pending secret into an authenticator app, then confirm with a code from it. */
export function TwoFactorSetup({ pending, onEnabled, onCancel }: TwoFactorSetupProps) {
  const { t } = useTranslation();
  const [qr, setQr] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    let active = true;
    qrCodeImage(pending.otpauthUrl).then(
      (image) => active && setQr(image),
      () => active && setQr(null),
    );
    return () => {
      active = false;
    };
  }, [pending.otpauthUrl]);

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!code.trim()) {
      setError(t('server.twoFactor.codeRequired'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const response = await twoFactorApi.enable(code.trim());
      onEnabled(response.recoveryCodes);
    } catch (failure) {
      setError(errorText(t, failure, t('profile.twoFactor.error')));
      setBusy(false);
    }
  }

  return (
    <form onSubmit={handleSubmit} noValidate data-testid="two-factor-setup">
      <Stack gap="sm">
        <Text size="sm">{t('profile.twoFactor.scan')}</Text>
        {qr && <Image src={qr} alt={t('profile.twoFactor.qrAlt')} w={200} h={200} bg="white" radius="sm" data-testid="two-factor-qr" />}
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            {t('profile.twoFactor.secret')}
          </Text>
          <Group gap="xs" wrap="wrap">
            <Code fz="sm" style={{ overflowWrap: 'anywhere' }} data-testid="two-factor-secret">
              {pending.secret.replace(/(.{4})/g, '$1 ').trim()}
            </Code>
            <CopyValueButton value={pending.secret} testId="two-factor-secret-copy" />
          </Group>
        </Stack>
        <FormError message={error} />
        <TextInput
          name="code"
          label={t('profile.twoFactor.code')}
          placeholder={'0'.repeat(TOTP_DIGITS)}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={TOTP_DIGITS + 1}
          maw={220}
          value={code}
          onChange={(event) => setCode(event.currentTarget.value.replace(/[^\d ]/g, ''))}
          data-testid="two-factor-setup-code"
        />
        <Group gap="xs">
          <Button type="submit" loading={busy} data-testid="two-factor-enable">
            {t('profile.twoFactor.enable')}
          </Button>
          <Button variant="default" onClick={onCancel} disabled={busy}>
            {t('profile.twoFactor.cancel')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
