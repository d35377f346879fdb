import { Alert, Badge, Button, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle, IconShieldLock } from '@tabler/icons-react';
import type { TwoFactorSetupResponse } from '@vigil/proto';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../api/errors';
import { useRead } from '../../../api/useRead';
import { notify } from '../../../app/notify';
import { useAuthStore } from '../../auth/store';
import { twoFactorApi } from '../twoFactor';
import { RecoveryCodes } from './RecoveryCodes';
import { TwoFactorConfirm } from './TwoFactorConfirm';
import { TwoFactorSetup } from './TwoFactorSetup';

/** What the section shows besides the state: nothing, the setup, fresh recovery codes, or a confirmation form. */
type Step =
  | { kind: 'idle' }
  | { kind: 'setup'; pending: TwoFactorSetupResponse }
  | { kind: 'codes'; codes: string[] }
  | { kind: 'disable' }
  | { kind: 'regenerate' };

const readStatus = (signal: AbortSignal) => twoFactorApi.status(signal);

/** The profile's "Two-factor authentication" section: set up, see recovery codes once, regenerate them, disable. */
export function TwoFactorSection() {
  const { t } = useTranslation();
  const read = useRead(readStatus);
  const setSetupRequired = useAuthStore((state) => state.setTwoFactorSetupRequired);
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const [starting, setStarting] = useState(false);
  const status = read.value;

  // The server decides whether the setup is still owed; the app's guard follows it.
  useEffect(() => {
    if (status) setSetupRequired(status.required && !status.enabled);
  }, [status, setSetupRequired]);

  async function startSetup() {
    setStarting(true);
    try {
      setStep({ kind: 'setup', pending: await twoFactorApi.setup() });
    } catch (error) {
      notify.error(errorText(t, error, t('profile.twoFactor.error')));
    } finally {
      setStarting(false);
    }
  }

  function showCodes(codes: string[], message: string) {
    notify.success(message);
    setStep({ kind: 'codes', codes });
    read.retry();
  }

  const done = () => setStep({ kind: 'idle' });

  return (
    <Paper withBorder radius="md" p="lg" data-testid="two-factor-section">
      <Stack gap="md">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Title order={4}>{t('profile.twoFactor.title')}</Title>
          {status && (
            <Badge variant="light" color={status.enabled ? 'green' : 'gray'} data-testid="two-factor-state">
              {status.enabled ? t('profile.twoFactor.on') : t('profile.twoFactor.off')}
            </Badge>
          )}
        </Group>
        <Text size="sm" c="dimmed">
          {t('profile.twoFactor.description')}
        </Text>
        {status?.required && !status.enabled && (
          <Alert color="orange" variant="light" icon={<IconAlertTriangle size={18} />} data-testid="two-factor-required">
            {t('profile.twoFactor.required')}
          </Alert>
        )}
        {read.status === 'loading' && status === undefined && <Loader size="sm" aria-label={t('auth.loading')} />}
        {read.status === 'error' && (
          <Alert color="red" variant="light">
            {errorText(t, read.error, t('profile.twoFactor.loadError'))}
          </Alert>
        )}

        {step.kind === 'setup' && (
          <TwoFactorSetup pending={step.pending} onEnabled={(codes) => showCodes(codes, t('server.twoFactor.enabled'))} onCancel={done} />
        )}
        {step.kind === 'codes' && <RecoveryCodes codes={step.codes} onDone={done} />}
        {step.kind === 'disable' && (
          <TwoFactorConfirm
            testId="two-factor-disable-form"
            help={t('profile.twoFactor.disableHelp')}
            submitLabel={t('profile.twoFactor.disableSubmit')}
            withPassword
            danger
            onConfirm={async (code, password) => {
              await twoFactorApi.disable({ password, code });
              notify.success(t('server.twoFactor.disabled'));
              done();
              read.retry();
            }}
            onCancel={done}
          />
        )}
        {step.kind === 'regenerate' && (
          <TwoFactorConfirm
            testId="two-factor-regenerate-form"
            help={t('profile.twoFactor.regenerateHelp')}
            submitLabel={t('profile.twoFactor.regenerateSubmit')}
            withPassword={false}
            onConfirm={async (code) => {
              const response = await twoFactorApi.regenerate(code);
              showCodes(response.recoveryCodes, t('server.twoFactor.recoveryCodesCreated'));
            }}
            onCancel={done}
          />
        )}

        {status && step.kind === 'idle' && !status.enabled && (
          <Group>
            <Button
              leftSection={<IconShieldLock size={16} />}
              loading={starting}
              onClick={() => void startSetup()}
              data-testid="two-factor-setup-start"
            >
              {t('profile.twoFactor.setup')}
            </Button>
          </Group>
        )}
        {status && step.kind === 'idle' && status.enabled && (
          <Stack gap="xs">
            <Text size="sm" data-testid="two-factor-codes-left">
              {t('profile.twoFactor.codesLeft', { count: status.recoveryCodesLeft })}
            </Text>
            <Group gap="xs" wrap="wrap">
              <Button variant="default" onClick={() => setStep({ kind: 'regenerate' })} data-testid="two-factor-regenerate">
                {t('profile.twoFactor.regenerate')}
              </Button>
              <Button variant="default" color="red" onClick={() => setStep({ kind: 'disable' })} data-testid="two-factor-disable">
                {t('profile.twoFactor.disable')}
              </Button>
            </Group>
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
