import { ActionIcon, Badge, Button, Group, Paper, Stack, Table, Text, Tooltip } from '@mantine/core';
import { IconPlus, IconTemplate } from '@tabler/icons-react';
import type { NotificationChannelDto } from '@vigil/proto';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../api/errors';
import { notify } from '../../../app/notify';
import { selectCanWrite, useAuthStore } from '../../auth/store';
import { ConfirmDeleteModal } from '../../../components/ConfirmDeleteModal/ConfirmDeleteModal';
import { notificationsApi } from '../api';
import { isChannelId } from '../channelForm';
import { useNotificationsStore } from '../store';
import { ChannelDialog } from './ChannelDialog';
import { ChannelTemplates } from './ChannelTemplates';
import { RowActions } from './RowActions';

type DialogState = { opened: false } | { opened: true; channel: NotificationChannelDto | null };

/** The channels table with add, edit (dialog) and delete (after confirmation). */
export function ChannelsPanel() {
  const { t } = useTranslation();
  const channels = useNotificationsStore((state) => state.channels);
  const reloadChannels = useNotificationsStore((state) => state.reloadChannels);
  const forgetChannel = useNotificationsStore((state) => state.forgetChannel);
  const [dialog, setDialog] = useState<DialogState>({ opened: false });
  const [deleting, setDeleting] = useState<NotificationChannelDto | null>(null);
  const [choosing, setChoosing] = useState<NotificationChannelDto | null>(null);
  // A viewer sees the channels and their templates; adding, editing, testing and deleting are not offered.
  const canWrite = useAuthStore(selectCanWrite);

  function open(channel: NotificationChannelDto | null) {
    if (channel && !isChannelId(channel.id)) {
      notify.error(t('server.request.invalidId'));
      return;
    }
    setDialog({ opened: true, channel });
  }

  async function saved() {
    setDialog({ opened: false });
    try {
      await reloadChannels();
    } catch (error) {
      notify.error(errorText(t, error, t('server.notifications.loadFailed')));
    }
  }

  async function remove(channel: NotificationChannelDto) {
    if (!isChannelId(channel.id)) {
      notify.error(t('server.request.invalidId'));
      setDeleting(null);
      return;
    }
    await notificationsApi.removeChannel(channel.id);
    forgetChannel(channel.id);
    setDeleting(null);
    notify.success(t('server.notifications.channelDeleted'));
  }

  return (
    <Stack gap="md" data-testid="channels-panel">
      <Group justify="space-between">
        <Text c="dimmed" size="sm">
          {t('notifications.channels.hint')}
        </Text>
        {canWrite && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => open(null)} data-testid="channel-add">
            {t('notifications.channels.add')}
          </Button>
        )}
      </Group>
      {channels.length === 0 ? (
        <Paper withBorder radius="md" p="xl">
          <Text c="dimmed" ta="center" data-testid="channels-empty">
            {t('notifications.channels.empty')}
          </Text>
        </Paper>
      ) : (
        <Table.ScrollContainer minWidth={560}>
          <Table verticalSpacing="sm" highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('notifications.channels.name')}</Table.Th>
                <Table.Th>{t('notifications.channels.type')}</Table.Th>
                <Table.Th>{t('notifications.channels.state')}</Table.Th>
                <Table.Th ta="right">{t('common.actions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {channels.map((channel) => (
                <Table.Tr key={channel.id} data-testid={`channel-row-${channel.id}`}>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{channel.name}</Table.Td>
                  <Table.Td>
                    <Badge variant="light">{t(`notifications.types.${channel.type}`)}</Badge>
                  </Table.Td>
                  <Table.Td>
                    <Badge color={channel.enabled ? 'green' : 'gray'} variant="dot">
                      {channel.enabled ? t('notifications.channels.enabled') : t('notifications.channels.disabled')}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <RowActions prefix="channel" id={channel.id} onEdit={() => open(channel)} onDelete={() => setDeleting(channel)}>
                      <Tooltip label={t('notifications.templates.channel.open')}>
                        <ActionIcon
                          variant="subtle"
                          aria-label={t('notifications.templates.channel.open')}
                          onClick={() => setChoosing(channel)}
                          data-testid={`channel-templates-${channel.id}`}
                        >
                          <IconTemplate size={18} />
                        </ActionIcon>
                      </Tooltip>
                    </RowActions>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}

      <ChannelDialog
        opened={dialog.opened}
        channel={dialog.opened ? dialog.channel : null}
        onClose={() => setDialog({ opened: false })}
        onSaved={() => void saved()}
      />
      <ChannelTemplates channel={choosing} onClose={() => setChoosing(null)} />
      <ConfirmDeleteModal
        item={deleting}
        texts={{
          title: t('notifications.channels.deleteTitle'),
          message: (name) => t('notifications.channels.deleteMessage', { name }),
          failed: t('server.notifications.channelDeleteFailed'),
          confirm: t('common.delete'),
        }}
        onClose={() => setDeleting(null)}
        onConfirm={remove}
      />
    </Stack>
  );
}
