import { Group, Loader, Switch, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../api/errors';
import { notify } from '../../../app/notify';
import { settingsApi } from '../../settings/api';

/** The admin's switch "require two-factor sign-in for everyone" (GET/PUT /api/settings, `requireTwoFactor`). */
export function RequireTwoFactorToggle() {
  const { t } = useTranslation();
  const [required, setRequired] = useState<boolean | null>(null);
  const [saving, setSaving] = useState(false);
  const [loadFailed, setLoadFailed] = useState(false);

  useEffect(() => {
    let active = true;
    settingsApi
      .read()
      .then((response) => active && setRequired(response.settings?.requireTwoFactor === true))
      .catch(() => active && setLoadFailed(true));
    return () => {
      active = false;
    };
  }, []);

  async function toggle(next: boolean) {
    // The switch moves at once and moves back if the server refuses, so it never lags the click.
    const previous = required;
    setRequired(next);
    setSaving(true);
    try {
      const response = await settingsApi.update({ requireTwoFactor: next });
      const saved = response.settings?.requireTwoFactor ?? next;
      setRequired(saved);
      notify.success(saved ? t('users.twoFactorRequired.enabled') : t('users.twoFactorRequired.disabled'));
    } catch (error) {
      setRequired(previous);
      notify.error(errorText(t, error, t('users.twoFactorRequired.error')));
    } finally {
      setSaving(false);
    }
  }

  if (loadFailed) {
    return (
      <Text size="sm" c="red" mt="sm">
        {t('users.twoFactorRequired.loadError')}
      </Text>
    );
  }
  return (
    <Group gap="xs" wrap="nowrap" mt="sm">
      <Switch
        checked={required === true}
        disabled={required === null || saving}
        onChange={(event) => void toggle(event.currentTarget.checked)}
        label={t('users.twoFactorRequired.label')}
        description={t('users.twoFactorRequired.description')}
        data-testid="require-two-factor-toggle"
      />
      {(required === null || saving) && <Loader size="xs" />}
    </Group>
  );
}
