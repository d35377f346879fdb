import { ActionIcon, Group } from '@mantine/core';
import { IconEye, IconPencil, IconTrash } from '@tabler/icons-react';
import type { AgentDto } from '@vigil/proto';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { agentDetailPath, agentEditPath } from '../../../routes/paths';
import { selectCanWrite, useAuthStore } from '../../auth/store';

/**
 * Details, edit and delete for one agent of the list (spec section 2). Hints are native titles rather than tooltip
 * components, which a page of a hundred rows would pay for when paging.
 */
export function AgentActions({ agent, onDelete }: { agent: AgentDto; onDelete: (agent: AgentDto) => void }) {
  const { t } = useTranslation();
  const details = t('agents.actions.details');
  const edit = t('agents.actions.edit');
  const remove = t('agents.actions.delete');
  const canWrite = useAuthStore(selectCanWrite);
  return (
    <Group gap={4} wrap="nowrap">
      <ActionIcon
        component={Link}
        to={agentDetailPath(agent.id)}
        variant="subtle"
        title={details}
        aria-label={`${details} ${agent.name}`}
        data-testid={`agent-view-${agent.id}`}
      >
        <IconEye size={16} />
      </ActionIcon>
      {/* A viewer reads only. */}
      {canWrite && (
        <>
          <ActionIcon
            component={Link}
            to={agentEditPath(agent.id)}
            variant="subtle"
            title={edit}
            aria-label={`${edit} ${agent.name}`}
            data-testid={`agent-edit-${agent.id}`}
          >
            <IconPencil size={16} />
          </ActionIcon>
          <ActionIcon
            variant="subtle"
            color="red"
            title={remove}
            onClick={() => onDelete(agent)}
            aria-label={`${remove} ${agent.name}`}
            data-testid={`agent-delete-${agent.id}`}
          >
            <IconTrash size={16} />
          </ActionIcon>
        </>
      )}
    </Group>
  );
}
