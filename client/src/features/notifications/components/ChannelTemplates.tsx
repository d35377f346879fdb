import { Alert, Button, Group, Modal, Select, SimpleGrid, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconAlertCircle } from '@tabler/icons-react';
import { NOTIFICATION_EVENTS, type NotificationChannelDto, type NotificationEvent } from '@vigil/proto';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../api/errors';
import { notify } from '../../../app/notify';
import { selectCanWrite, useAuthStore } from '../../auth/store';
import { notificationsApi } from '../api';
import { useNotificationsStore } from '../store';
import { channelTemplatesBody, choicesFor, eventLabel, isEvent } from '../templateForm';

interface ChannelTemplatesProps {
  /** The channel whose templates are chosen; null keeps the dialog closed. */
  channel: NotificationChannelDto | null;
  onClose: () => void;
}

/** Per event, the custom template a channel sends with, or the default in the channel's language (read-only to a viewer). */
export function ChannelTemplates({ channel, onClose }: ChannelTemplatesProps) {
  const { t } = useTranslation();
  const phone = useMediaQuery('(max-width: 36em)');
  return (
    <Modal
      opened={channel !== null}
      onClose={onClose}
      title={t('notifications.templates.channel.title', { name: channel?.name ?? '' })}
      size="lg"
      fullScreen={phone}
      centered
      data-testid="channel-templates"
    >
      {channel && <ChoiceForm channel={channel} onClose={onClose} />}
    </Modal>
  );
}

function chosenOf(channel: NotificationChannelDto): Partial<Record<NotificationEvent, number>> {
  return Object.fromEntries(Object.entries(channel.templates ?? {}).filter(([event]) => isEvent(event)));
}

function ChoiceForm({ channel, onClose }: { channel: NotificationChannelDto; onClose: () => void }) {
  const { t } = useTranslation();
  const templates = useNotificationsStore((state) => state.templates);
  const reloadTemplates = useNotificationsStore((state) => state.reloadTemplates);
  const [chosen, setChosen] = useState(() => chosenOf(channel));
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const canWrite = useAuthStore(selectCanWrite);

  async function save() {
    setSaving(true);
    setFailure(null);
    try {
      await notificationsApi.setChannelTemplates(channel.id, channelTemplatesBody(chosen, templates));
      notify.success(t('server.notifications.channelTemplatesSaved'));
      onClose();
      await reloadTemplates().catch((error: unknown) => notify.error(errorText(t, error, t('server.notifications.loadFailed'))));
    } catch (error) {
      setFailure(errorText(t, error, t('common.error.unknown')));
    } finally {
      setSaving(false);
    }
  }

  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        {t('notifications.templates.channel.hint')}
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {NOTIFICATION_EVENTS.map((event) => {
          const choices = choicesFor(event, templates);
          return (
            <Select
              key={event}
              label={t(eventLabel(event) as 'notifications.templates.events.test')}
              data={[
                { value: '', label: t('notifications.templates.channel.useDefault') },
                ...choices.map((template) => ({ value: String(template.id), label: `${template.name} (${template.language})` })),
              ]}
              value={String(chosen[event] ?? '')}
              onChange={(value) => setChosen({ ...chosen, [event]: value ? Number(value) : undefined })}
              allowDeselect={false}
              disabled={!canWrite || choices.length === 0}
              description={choices.length === 0 ? t('notifications.templates.channel.noCustom') : undefined}
              data-testid={`channel-template-${event}`}
            />
          );
        })}
      </SimpleGrid>
      {failure && (
        <Alert color="red" icon={<IconAlertCircle size={16} />}>
          {failure}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose} data-testid="channel-templates-close">
          {canWrite ? t('common.cancel') : t('common.close')}
        </Button>
        {canWrite && (
          <Button onClick={() => void save()} loading={saving} data-testid="channel-templates-save">
            {t('common.save')}
          </Button>
        )}
      </Group>
    </Stack>
  );
}
