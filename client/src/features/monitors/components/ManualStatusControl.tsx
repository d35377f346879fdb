import { Button, Card, Group, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { type CheckResponse, type ManualStatus, MANUAL_STATUSES, type MonitorDto, MONITOR_TYPE_LIMITS } from '@vigil/proto';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../api/errors';
import { notify } from '../../../app/notify';
import { monitorsApi } from '../api';

interface ManualStatusControlProps {
  monitor: MonitorDto;
  /** The status set, as a check: the page's cache takes the check and the monitor after it. */
  onSet: (result: CheckResponse) => void;
}

/** A manual monitor's "Set status": up, down or degraded with a message, kept in its history like a check. */
export function ManualStatusControl({ monitor, onSet }: ManualStatusControlProps) {
  const { t } = useTranslation();
  const current = MANUAL_STATUSES.find((status) => status === monitor.status);
  const [status, setStatus] = useState<ManualStatus>(current ?? 'up');
  const [message, setMessage] = useState('');
  const [saving, setSaving] = useState(false);

  async function save() {
    setSaving(true);
    try {
      const result = await monitorsApi.setStatus(monitor.id, { status, message: message.trim() || null });
      onSet(result);
      setMessage('');
      notify.success(t('monitor.manualStatus.saved', { status: t(`monitor.status.${status}`) }));
    } catch (failure) {
      notify.error(errorText(t, failure, t('monitor.manualStatus.failed')), t('monitor.manualStatus.failed'));
    } finally {
      setSaving(false);
    }
  }

  return (
    <Card withBorder radius="md" padding="md" data-testid="monitor-manual-status">
      <Stack gap="sm">
        <Text fw={500}>{t('monitor.manualStatus.title')}</Text>
        <Group align="flex-end" gap="sm" wrap="wrap">
          <SegmentedControl
            value={status}
            onChange={(next) => setStatus(next as ManualStatus)}
            data={MANUAL_STATUSES.map((value) => ({ value, label: t(`monitor.status.${value}`) }))}
            aria-label={t('monitor.manualStatus.title')}
            data-testid="monitor-manual-status-choice"
          />
          <TextInput
            style={{ flex: 1, minWidth: 200 }}
            label={t('monitor.manualStatus.message')}
            placeholder={t('monitor.manualStatus.messagePlaceholder')}
            maxLength={MONITOR_TYPE_LIMITS.messageMax}
            value={message}
            onChange={(event) => setMessage(event.currentTarget.value)}
            data-testid="monitor-manual-status-message"
          />
          <Button loading={saving} onClick={() => void save()} data-testid="monitor-manual-status-save">
            {t('monitor.manualStatus.save')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
