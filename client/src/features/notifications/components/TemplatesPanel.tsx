import { ActionIcon, Badge, Button, Code, Group, Modal, Stack, Table, Text, Tooltip } from '@mantine/core';
import { IconEye, IconPlus } from '@tabler/icons-react';
import type { NotificationTemplateDto } from '@vigil/proto';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../../app/notify';
import { useNotificationsStore } from '../store';
import { RowActions } from './RowActions';

/** The variables a template may use, as the server fills them. */
export const TEMPLATE_VARIABLES = [
  'name',
  'status',
  'previous_status',
  'time',
  'type',
  'target',
  'url',
  'response_time',
  'status_code',
  'expected_status',
  'error',
  'hostname',
  'ip_addresses',
  'os',
  'metric',
  'value',
  'threshold',
  'days_remaining',
  'expires_at',
  'issuer',
] as const;

/** The default templates, read-only: viewing works, the defaults cannot be edited or deleted, adding says "coming soon". */
export function TemplatesPanel() {
  const { t } = useTranslation();
  const templates = useNotificationsStore((state) => state.templates);
  const [viewing, setViewing] = useState<NotificationTemplateDto | null>(null);
  const comingSoon = () => notify.info(t('server.notifications.templatesReadOnly'));

  return (
    <Stack gap="md" data-testid="templates-panel">
      <Group justify="space-between">
        <Text c="dimmed" size="sm">
          {t('notifications.templates.hint')}
        </Text>
        <Button leftSection={<IconPlus size={16} />} variant="light" onClick={comingSoon} data-testid="template-add">
          {t('notifications.templates.add')}
        </Button>
      </Group>
      <Table.ScrollContainer minWidth={640}>
        <Table verticalSpacing="sm" highlightOnHover>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('notifications.templates.name')}</Table.Th>
              <Table.Th>{t('notifications.templates.event')}</Table.Th>
              <Table.Th>{t('notifications.templates.language')}</Table.Th>
              <Table.Th ta="right">{t('common.actions')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {templates.map((template) => (
              <Table.Tr key={template.id} data-testid={`template-row-${template.id}`}>
                <Table.Td>
                  <Group gap="xs">
                    <Text size="sm">{template.name}</Text>
                    {template.is_default && (
                      <Badge size="sm" variant="outline">
                        {t('notifications.templates.default')}
                      </Badge>
                    )}
                  </Group>
                </Table.Td>
                <Table.Td>
                  <Code>{template.type}</Code>
                </Table.Td>
                <Table.Td>{t(`languages.${template.language}`)}</Table.Td>
                <Table.Td>
                  <RowActions
                    prefix="template"
                    id={template.id}
                    onEdit={comingSoon}
                    onDelete={comingSoon}
                    editLocked={template.is_default ? t('notifications.templates.defaultReadOnly') : undefined}
                    deleteLocked={template.is_default ? t('notifications.templates.defaultLocked') : undefined}
                  >
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
                  </RowActions>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Text size="sm" c="dimmed">
        {t('notifications.templates.variables')} {TEMPLATE_VARIABLES.map((name) => `{{${name}}}`).join(' ')}
      </Text>

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
    </Stack>
  );
}
