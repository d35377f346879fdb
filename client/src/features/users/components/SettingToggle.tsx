import { Group, Loader, Switch, Text } from '@mantine/core';
import type { InstanceSettings } from '@vigil/proto';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../api/errors';
import { notify } from '../../../app/notify';
import { settingsApi } from '../../settings/api';

type Flag = { [K in keyof InstanceSettings]: InstanceSettings[K] extends boolean | undefined ? K : never }[keyof InstanceSettings];

interface SettingToggleProps {
  /** The instance setting it switches (GET/PUT /api/settings). */
  setting: Flag;
  /** Its texts: `<texts>.label`, `.description`, `.enabled`, `.disabled`, `.error`, `.loadError`. */
  texts: 'users.registration' | 'users.passwordLogin' | 'users.twoFactorRequired';
  testId: string;
}

/**
 * An admin's on/off switch for one instance setting. It moves at once and moves back (saying why) if the server
 * refuses, so it never lags the click.
 */
export function SettingToggle({ setting, texts, testId }: SettingToggleProps) {
  const { t } = useTranslation();
  const [on, setOn] = useState<boolean | null>(null);
  const [saving, setSaving] = useState(false);
  const [loadFailed, setLoadFailed] = useState(false);

  useEffect(() => {
    let active = true;
    settingsApi
      .read()
      .then((response) => active && setOn(response.settings?.[setting] === true))
      .catch(() => active && setLoadFailed(true));
    return () => {
      active = false;
    };
  }, [setting]);

  async function toggle(next: boolean) {
    const previous = on;
    setOn(next);
    setSaving(true);
    try {
      const response = await settingsApi.update({ [setting]: next });
      const saved = response.settings?.[setting] ?? next;
      setOn(saved);
      notify.success(saved ? t(`${texts}.enabled`) : t(`${texts}.disabled`));
    } catch (error) {
      setOn(previous);
      notify.error(errorText(t, error, t(`${texts}.error`)));
    } finally {
      setSaving(false);
    }
  }

  if (loadFailed) {
    return (
      <Text size="sm" c="red">
        {t(`${texts}.loadError`)}
      </Text>
    );
  }
  return (
    <Group gap="xs" wrap="nowrap">
      <Switch
        checked={on === true}
        disabled={on === null || saving}
        onChange={(event) => void toggle(event.currentTarget.checked)}
        label={t(`${texts}.label`)}
        description={t(`${texts}.description`)}
        data-testid={testId}
      />
      {(on === null || saving) && <Loader size="xs" />}
    </Group>
  );
}
