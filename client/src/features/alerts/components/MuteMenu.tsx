import { Button, Group, Menu, Modal, Stack, TextInput } from '@mantine/core';
import { IconBell, IconBellOff, IconChevronDown } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../api/errors';
import { notify } from '../../../app/notify';
import { liveCache } from '../../../live/cache';
import { selectCanWrite, useAuthStore } from '../../auth/store';
import { formatDateTime } from '../../monitors/format';
import { alertsApi } from '../api';
import { activeMute, futureIsoOf, MUTE_PRESETS_HOURS, muteUntil } from '../live';
import { useNow } from '../useNow';

interface MuteMenuProps {
  kind: 'monitor' | 'agent';
  id: number;
  mutedUntil: string | null | undefined;
}

/** The row as every screen shows it now muted until `until` (null: unmuted); the server's push confirms it. */
function showMuted(kind: MuteMenuProps['kind'], id: number, until: string | null): void {
  if (kind === 'monitor') liveCache.monitors.patch(id, (monitor) => ({ ...monitor, muted_until: until }));
  else liveCache.agents.patch(id, (agent) => ({ ...agent, muted_until: until }));
}

/** Snooze a monitor's or agent's notifications for 1, 8 or 24 hours or until a chosen time, or unmute; writers only. */
export function MuteMenu({ kind, id, mutedUntil }: MuteMenuProps) {
  const { t, i18n } = useTranslation();
  const canWrite = useAuthStore(selectCanWrite);
  const [busy, setBusy] = useState(false);
  const [choosing, setChoosing] = useState(false);
  const [chosen, setChosen] = useState('');
  const [chosenError, setChosenError] = useState<string | null>(null);
  const muted = activeMute(mutedUntil, useNow());
  if (!canWrite) return null;

  async function mute(until: string | null) {
    setBusy(true);
    try {
      const answer = await alertsApi.mute(kind, id, { until });
      showMuted(kind, id, answer.data.muted_until);
      notify.success(until ? t('alerts.mute.done', { time: formatDateTime(until, i18n.language) }) : t('alerts.mute.undone'));
      setChoosing(false);
    } catch (error) {
      notify.error(errorText(t, error, t('alerts.mute.failed')), t('alerts.mute.failed'));
    } finally {
      setBusy(false);
    }
  }

  function muteChosen() {
    const until = futureIsoOf(chosen, Date.now());
    if (!until) {
      setChosenError(t('alerts.mute.pastTime'));
      return;
    }
    void mute(until);
  }

  return (
    <>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <Button
            variant="default"
            leftSection={muted ? <IconBellOff size={16} /> : <IconBell size={16} />}
            rightSection={<IconChevronDown size={14} />}
            loading={busy}
            data-testid={`${kind}-mute`}
          >
            {t(muted ? 'alerts.mute.muted' : 'alerts.mute.button')}
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          {MUTE_PRESETS_HOURS.map((hours) => (
            <Menu.Item key={hours} onClick={() => void mute(muteUntil(hours, Date.now()))} data-testid={`${kind}-mute-${hours}h`}>
              {t('alerts.mute.forHours', { count: hours })}
            </Menu.Item>
          ))}
          <Menu.Item
            onClick={() => {
              setChosen('');
              setChosenError(null);
              setChoosing(true);
            }}
            data-testid={`${kind}-mute-until`}
          >
            {t('alerts.mute.until')}
          </Menu.Item>
          {muted && (
            <>
              <Menu.Divider />
              <Menu.Item onClick={() => void mute(null)} data-testid={`${kind}-unmute`}>
                {t('alerts.mute.unmute')}
              </Menu.Item>
            </>
          )}
        </Menu.Dropdown>
      </Menu>
      <Modal opened={choosing} onClose={() => setChoosing(false)} title={t('alerts.mute.untilTitle')} centered>
        <Stack gap="md">
          <TextInput
            type="datetime-local"
            label={t('alerts.mute.untilLabel')}
            value={chosen}
            onChange={(event) => {
              setChosen(event.currentTarget.value);
              setChosenError(null);
            }}
            error={chosenError}
            data-testid={`${kind}-mute-until-input`}
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setChoosing(false)} disabled={busy}>
              {t('common.cancel')}
            </Button>
            <Button onClick={muteChosen} loading={busy} data-testid={`${kind}-mute-until-save`}>
              {t('alerts.mute.confirm')}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}
