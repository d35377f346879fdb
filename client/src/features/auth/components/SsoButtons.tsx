import { Alert, Button, Divider, Stack } from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import { isMessageCode, MESSAGE_VALUES, type SsoProvider } from '@vigil/proto';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { FormError } from '../../../components/FormError/FormError';
import { ssoApi } from '../ssoApi';

/**
 * The login page's single sign-on part: a "Sign in with …" button per configured provider, the message of a refused
 * sign-in (`/login?sso_error=<code>`, where the server sends the browser back), and a note when passwords are disabled.
 * Renders nothing when no provider is configured.
 */
export function SsoButtons() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const [providers, setProviders] = useState<SsoProvider[]>([]);
  const [passwordLoginDisabled, setPasswordLoginDisabled] = useState(false);
  const code = params.get('sso_error');
  const failure = code ? (isMessageCode(code) ? t(`server.${code}`, { replace: MESSAGE_VALUES[code] }) : t('login.sso.failed')) : null;

  useEffect(() => {
    const controller = new AbortController();
    ssoApi
      .providers(controller.signal)
      .then((response) => {
        setProviders(response.providers ?? []);
        setPasswordLoginDisabled(response.passwordLoginDisabled === true);
      })
      // Without the list the page still offers the password form, and the server decides on submit.
      .catch(() => setProviders([]));
    return () => controller.abort();
  }, []);

  if (providers.length === 0) return <FormError message={failure} />;
  return (
    <Stack gap="sm" data-testid="sso-buttons">
      <FormError message={failure} />
      {passwordLoginDisabled && (
        <Alert color="blue" variant="light">
          {t('login.sso.passwordDisabled')}
        </Alert>
      )}
      <Divider label={t('login.sso.or')} labelPosition="center" />
      {providers.map((provider) => (
        <Button
          key={provider.id}
          component="a"
          href={ssoApi.startUrl(provider.id)}
          variant="default"
          fullWidth
          leftSection={<IconKey size={16} />}
          data-testid={`sso-${provider.id}`}
        >
          {t('login.sso.signInWith', { name: provider.name })}
        </Button>
      ))}
    </Stack>
  );
}
