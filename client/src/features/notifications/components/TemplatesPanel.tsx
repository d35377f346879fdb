import { ActionIcon, Badge, Button, Code, Group, Modal, Paper, Stack, Table, Text, Title, Tooltip } from '@mantine/core';
import { IconCopy, IconEye, IconPlus } from '@tabler/icons-react';
import type { NotificationTemplateDto } from '@vigil/proto';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../api/errors';
import { notify } from '../../../app/notify';
import { selectCanWrite, useAuthStore } from '../../auth/store';
import { ConfirmDeleteModal } from '../../../components/ConfirmDeleteModal/ConfirmDeleteModal';
import { notificationsApi } from '../api';
import { EMPTY_TEMPLATE, eventLabel, formFrom, isEvent } from '../templateForm';
import { useNotificationsStore } from '../store';
import { RowActions } from './RowActions';
import { TemplateDialog, type TemplateDialogState } from './TemplateDialog';

/**
 * Custom templates (create, edit, delete after confirmation) above the read-only defaults (view, copy to custom). A
 * viewer may only view, custom templates included.
 */
export function TemplatesPanel() {
  const { t } = useTranslation();
  const templates = useNotificationsStore((state) => state.templates);
  const reloadTemplates = useNotificationsStore((state) => state.reloadTemplates);
  const [viewing, setViewing] = useState<NotificationTemplateDto | null>(null);
  const [dialog, setDialog] = useState<TemplateDialogState>({ opened: false });
  const [deleting, setDeleting] = useState<NotificationTemplateDto | null>(null);
  const canWrite = useAuthStore(selectCanWrite);
  const custom = templates.filter((template) => !template.is_default);
  const defaults = templates.filter((template) => template.is_default);

  async function reload() {
    try {
      await reloadTemplates();
    } catch (error) {
      notify.error(errorText(t, error, t('server.notifications.loadFailed')));
    }
  }

  async function remove(template: NotificationTemplateDto) {
    await notificationsApi.removeTemplate(template.id);
    setDeleting(null);
    notify.success(t('server.notifications.templateDeleted'));
    await reload();
  }

  const eventOf = (template: NotificationTemplateDto) => (
    <Stack gap={0}>
      <Text size="sm">
        {isEvent(template.type) ? t(eventLabel(template.type) as 'notifications.templates.events.test') : template.type}
      </Text>
      <Code fz="xs" w="fit-content">
        {template.type}
      </Code>
    </Stack>
  );

  const viewButton = (template: NotificationTemplateDto) => (
    <Tooltip label={t('notifications.templates.view')}>
      <ActionIcon
        variant="subtle"
        aria-label={t('notifications.templates.view')}
        onClick={() => setViewing(template)}
        data-testid={`template-view-${template.id}`}
      >
        <IconEye size={18} />
      </ActionIcon>
    </Tooltip>
  );

  return (
    <Stack gap="md" data-testid="templates-panel">
      <Group justify="space-between">
        <Text c="dimmed" size="sm" maw={640}>
          {t('notifications.templates.hint')}
        </Text>
        {canWrite && (
          <Button
            leftSection={<IconPlus size={16} />}
            onClick={() => setDialog({ opened: true, id: null, form: EMPTY_TEMPLATE })}
            data-testid="template-add"
          >
            {t('notifications.templates.add')}
          </Button>
        )}
      </Group>

      <Title order={4}>{t('notifications.templates.customs')}</Title>
      {custom.length === 0 ? (
        <Paper withBorder radius="md" p="lg">
          <Text c="dimmed" ta="center" size="sm" data-testid="templates-empty">
            {t('notifications.templates.empty')}
          </Text>
        </Paper>
      ) : (
        <Table.ScrollContainer minWidth={480}>
          <Table verticalSpacing="sm" highlightOnHover data-testid="templates-custom">
            <TemplatesHead />
            <Table.Tbody>
              {custom.map((template) => (
                <Table.Tr key={template.id} data-testid={`template-row-${template.id}`}>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{template.name}</Table.Td>
                  <Table.Td>{eventOf(template)}</Table.Td>
                  <Table.Td>{t(`languages.${template.language}`)}</Table.Td>
                  <Table.Td>
                    <RowActions
                      prefix="template"
                      id={template.id}
                      onEdit={() => setDialog({ opened: true, id: template.id, form: formFrom(template) })}
                      onDelete={() => setDeleting(template)}
                    >
                      {!canWrite && viewButton(template)}
                    </RowActions>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}

      <Title order={4}>{t('notifications.templates.defaults')}</Title>
      <Table.ScrollContainer minWidth={480}>
        <Table verticalSpacing="sm" highlightOnHover data-testid="templates-defaults">
          <TemplatesHead />
          <Table.Tbody>
            {defaults.map((template) => (
              <Table.Tr key={template.id} data-testid={`template-row-${template.id}`}>
                <Table.Td>
                  <Group gap="xs">
                    <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                      {template.name}
                    </Text>
                    <Badge size="sm" variant="outline">
                      {t('notifications.templates.default')}
                    </Badge>
                  </Group>
                </Table.Td>
                <Table.Td>{eventOf(template)}</Table.Td>
                <Table.Td>{t(`languages.${template.language}`)}</Table.Td>
                <Table.Td>
                  <RowActions
                    prefix="template"
                    id={template.id}
                    onEdit={() => undefined}
                    onDelete={() => undefined}
                    editLocked={t('notifications.templates.defaultReadOnly')}
                    deleteLocked={t('notifications.templates.defaultLocked')}
                  >
                    {viewButton(template)}
                    {canWrite && (
                      <Tooltip label={t('notifications.templates.copy')}>
                        <ActionIcon
                          variant="subtle"
                          aria-label={t('notifications.templates.copy')}
                          onClick={() =>
                            setDialog({
                              opened: true,
                              id: null,
                              form: formFrom(template, t('notifications.templates.copyName', { name: template.name })),
                            })
                          }
                          data-testid={`template-copy-${template.id}`}
                        >
                          <IconCopy size={18} />
                        </ActionIcon>
                      </Tooltip>
                    )}
                  </RowActions>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>

      <Modal opened={viewing !== null} onClose={() => setViewing(null)} title={viewing?.name} size="lg" centered>
        {viewing && (
          <Stack gap="sm" data-testid="template-view">
            <Text size="sm" fw={500}>
              {t('notifications.templates.subject')}
            </Text>
            <Code block>{viewing.subject}</Code>
            <Text size="sm" fw={500}>
              {t('notifications.templates.content')}
            </Text>
            <Code block style={{ whiteSpace: 'pre-wrap' }}>
              {viewing.content}
            </Code>
          </Stack>
        )}
      </Modal>
      <TemplateDialog
        state={dialog}
        onClose={() => setDialog({ opened: false })}
        onSaved={() => {
          setDialog({ opened: false });
          void reload();
        }}
      />
      <ConfirmDeleteModal
        item={deleting}
        texts={{
          title: t('notifications.templates.deleteTitle'),
          message: (name) => t('notifications.templates.deleteMessage', { name }),
          failed: t('server.notifications.templateDeleteFailed'),
          confirm: t('common.delete'),
        }}
        onClose={() => setDeleting(null)}
        onConfirm={remove}
      />
    </Stack>
  );
}

/** The columns both template tables share. */
function TemplatesHead() {
  const { t } = useTranslation();
  return (
    <Table.Thead>
      <Table.Tr>
        <Table.Th>{t('notifications.templates.name')}</Table.Th>
        <Table.Th>{t('notifications.templates.event')}</Table.Th>
        <Table.Th>{t('notifications.templates.language')}</Table.Th>
        <Table.Th ta="right">{t('common.actions')}</Table.Th>
      </Table.Tr>
    </Table.Thead>
  );
}
