import { Group, Loader, Switch, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../api/errors';
import { notify } from '../../../app/notify';
import { settingsApi } from '../../settings/api';

/** The admin's on/off switch for self-registration (GET/PUT /api/settings). */
export function RegistrationToggle() {
  const { t } = useTranslation();
  const [allowed, setAllowed] = useState<boolean | null>(null);
  const [saving, setSaving] = useState(false);
  const [loadFailed, setLoadFailed] = useState(false);

  useEffect(() => {
    let active = true;
    settingsApi
      .read()
      .then((response) => active && setAllowed(response.settings?.allowRegistration === true))
      .catch(() => active && setLoadFailed(true));
    return () => {
      active = false;
    };
  }, []);

  async function toggle(next: boolean) {
    // The switch moves at once and moves back if the server refuses, so it never lags the click.
    const previous = allowed;
    setAllowed(next);
    setSaving(true);
    try {
      const response = await settingsApi.update({ allowRegistration: next });
      const saved = response.settings?.allowRegistration ?? next;
      setAllowed(saved);
      notify.success(saved ? t('users.registration.enabled') : t('users.registration.disabled'));
    } catch (error) {
      setAllowed(previous);
      notify.error(errorText(t, error, t('users.registration.error')));
    } finally {
      setSaving(false);
    }
  }

  if (loadFailed) {
    return (
      <Text size="sm" c="red">
        {t('users.registration.loadError')}
      </Text>
    );
  }
  return (
    <Group gap="xs" wrap="nowrap">
      <Switch
        checked={allowed === true}
        disabled={allowed === null || saving}
        onChange={(event) => void toggle(event.currentTarget.checked)}
        label={t('users.registration.label')}
        description={t('users.registration.description')}
        data-testid="registration-toggle"
      />
      {(allowed === null || saving) && <Loader size="xs" />}
    </Group>
  );
}
