import { ActionIcon, Group, Tooltip } from '@mantine/core';
import { IconEye, IconPencil, IconTrash } from '@tabler/icons-react';
import type { MonitorDto } from '@vigil/proto';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { monitorDetailPath, monitorEditPath } from '../../../routes/paths';

/** View, edit and delete for one monitor of the list (spec section 2). */
export function MonitorActions({ monitor, onDelete }: { monitor: MonitorDto; onDelete: (monitor: MonitorDto) => void }) {
  const { t } = useTranslation();
  return (
    <Group gap={4} wrap="nowrap">
      <Tooltip label={t('monitors.actions.view')}>
        <ActionIcon
          component={Link}
          to={monitorDetailPath(monitor.id)}
          variant="subtle"
          aria-label={`${t('monitors.actions.view')} ${monitor.name}`}
          data-testid={`monitor-view-${monitor.id}`}
        >
          <IconEye size={16} />
        </ActionIcon>
      </Tooltip>
      <Tooltip label={t('monitors.actions.edit')}>
        <ActionIcon
          component={Link}
          to={monitorEditPath(monitor.id)}
          variant="subtle"
          aria-label={`${t('monitors.actions.edit')} ${monitor.name}`}
          data-testid={`monitor-edit-${monitor.id}`}
        >
          <IconPencil size={16} />
        </ActionIcon>
      </Tooltip>
      <Tooltip label={t('monitors.actions.delete')}>
        <ActionIcon
          variant="subtle"
          color="red"
          onClick={() => onDelete(monitor)}
          aria-label={`${t('monitors.actions.delete')} ${monitor.name}`}
          data-testid={`monitor-delete-${monitor.id}`}
        >
          <IconTrash size={16} />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}
