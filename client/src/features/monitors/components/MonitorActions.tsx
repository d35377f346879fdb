import { ActionIcon, Group } from '@mantine/core';
import { IconEye, IconPencil, IconTrash } from '@tabler/icons-react';
import type { MonitorDto } from '@vigil/proto';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { monitorDetailPath, monitorEditPath } from '../../../routes/paths';
import { selectCanWrite, useAuthStore } from '../../auth/store';

/**
 * View, edit and delete for one monitor of the list (spec section 2). Hints are native titles: a page holds 150 of
 * these buttons, and tooltip components made switching pages about twice as slow.
 */
export function MonitorActions({ monitor, onDelete }: { monitor: MonitorDto; onDelete: (monitor: MonitorDto) => void }) {
  const { t } = useTranslation();
  const view = t('monitors.actions.view');
  const edit = t('monitors.actions.edit');
  const remove = t('monitors.actions.delete');
  const canWrite = useAuthStore(selectCanWrite);
  return (
    <Group gap={4} wrap="nowrap">
      <ActionIcon
        component={Link}
        to={monitorDetailPath(monitor.id)}
        variant="subtle"
        title={view}
        aria-label={`${view} ${monitor.name}`}
        data-testid={`monitor-view-${monitor.id}`}
      >
        <IconEye size={16} />
      </ActionIcon>
      {/* A viewer reads only. */}
      {canWrite && (
        <>
          <ActionIcon
            component={Link}
            to={monitorEditPath(monitor.id)}
            variant="subtle"
            title={edit}
            aria-label={`${edit} ${monitor.name}`}
            data-testid={`monitor-edit-${monitor.id}`}
          >
            <IconPencil size={16} />
          </ActionIcon>
          <ActionIcon
            variant="subtle"
            color="red"
            title={remove}
            onClick={() => onDelete(monitor)}
            aria-label={`${remove} ${monitor.name}`}
            data-testid={`monitor-delete-${monitor.id}`}
          >
            <IconTrash size={16} />
          </ActionIcon>
        </>
      )}
    </Group>
  );
}
