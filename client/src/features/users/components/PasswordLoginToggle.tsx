import { Group, Loader, Switch, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../api/errors';
import { notify } from '../../../app/notify';
import { settingsApi } from '../../settings/api';

/**
 * The admin's switch "disable password sign-in" (GET/PUT /api/settings, `passwordLoginDisabled`). The server refuses
 * to turn it on until an admin has signed in with single sign-on; the switch then moves back and says why.
 */
export function PasswordLoginToggle() {
  const { t } = useTranslation();
  const [disabled, setDisabled] = useState<boolean | null>(null);
  const [saving, setSaving] = useState(false);
  const [loadFailed, setLoadFailed] = useState(false);

  useEffect(() => {
    let active = true;
    settingsApi
      .read()
      .then((response) => active && setDisabled(response.settings?.passwordLoginDisabled === true))
      .catch(() => active && setLoadFailed(true));
    return () => {
      active = false;
    };
  }, []);

  async function toggle(next: boolean) {
    const previous = disabled;
    setDisabled(next);
    setSaving(true);
    try {
      const response = await settingsApi.update({ passwordLoginDisabled: next });
      const saved = response.settings?.passwordLoginDisabled ?? next;
      setDisabled(saved);
      notify.success(saved ? t('users.passwordLogin.enabled') : t('users.passwordLogin.disabled'));
    } catch (error) {
      setDisabled(previous);
      notify.error(errorText(t, error, t('users.passwordLogin.error')));
    } finally {
      setSaving(false);
    }
  }

  if (loadFailed) {
    return (
      <Text size="sm" c="red">
        {t('users.passwordLogin.loadError')}
      </Text>
    );
  }
  return (
    <Group gap="xs" wrap="nowrap" mt="sm">
      <Switch
        checked={disabled === true}
        disabled={disabled === null || saving}
        onChange={(event) => void toggle(event.currentTarget.checked)}
        label={t('users.passwordLogin.label')}
        description={t('users.passwordLogin.description')}
        data-testid="password-login-toggle"
      />
      {(disabled === null || saving) && <Loader size="xs" />}
    </Group>
  );
}
