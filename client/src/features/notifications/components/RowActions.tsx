import { ActionIcon, Group, Tooltip } from '@mantine/core';
import { IconEdit, IconTrash } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { selectCanWrite, useAuthStore } from '../../auth/store';

interface RowActionsProps {
  /** Test ids become `<prefix>-edit-<id>` and `<prefix>-delete-<id>`. */
  prefix: string;
  id: number;
  onEdit: () => void;
  onDelete: () => void;
  /** A reason given instead of the action's name disables it. */
  editLocked?: string;
  deleteLocked?: string;
  /** Further icons before edit and delete. */
  children?: ReactNode;
}

/** The edit and delete icons at the end of a channel or template row; a viewer gets only the further icons. */
export function RowActions({ prefix, id, onEdit, onDelete, editLocked, deleteLocked, children }: RowActionsProps) {
  const { t } = useTranslation();
  const canWrite = useAuthStore(selectCanWrite);
  if (!canWrite) {
    return (
      <Group gap={4} justify="flex-end" wrap="nowrap">
        {children}
      </Group>
    );
  }
  return (
    <Group gap={4} justify="flex-end" wrap="nowrap">
      {children}
      <Tooltip label={editLocked ?? t('common.edit')}>
        <ActionIcon
          variant="subtle"
          aria-label={t('common.edit')}
          disabled={editLocked !== undefined}
          onClick={onEdit}
          data-testid={`${prefix}-edit-${id}`}
        >
          <IconEdit size={18} />
        </ActionIcon>
      </Tooltip>
      <Tooltip label={deleteLocked ?? t('common.delete')}>
        <ActionIcon
          variant="subtle"
          color="red"
          aria-label={t('common.delete')}
          disabled={deleteLocked !== undefined}
          onClick={onDelete}
          data-testid={`${prefix}-delete-${id}`}
        >
          <IconTrash size={18} />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}
