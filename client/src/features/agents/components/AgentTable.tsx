import { Anchor, Group, Table, Text } from '@mantine/core';
import type { AgentDto } from '@vigil/proto';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { agentDetailPath } from '../../../routes/paths';
import { MutedIcon } from '../../alerts/components/MutedBadge';
import { MaintenanceBadge } from '../../maintenance/components/MaintenanceBadge';
import { primaryAddress } from '../format';
import { AgentActions } from './AgentActions';
import { AgentStatusBadge } from './AgentStatusBadge';

interface RowProps {
  agent: AgentDto;
  onDelete: (agent: AgentDto) => void;
}

/** One row, memoised: a report re-renders the row of its agent, not the page. */
const AgentTableRow = memo(function AgentTableRow({ agent, onDelete }: RowProps) {
  return (
    <Table.Tr data-testid={`agent-row-${agent.id}`}>
      <Table.Td>
        <Anchor component={Link} to={agentDetailPath(agent.id)} size="sm" fw={500}>
          {agent.name}
        </Anchor>
        <MutedIcon until={agent.muted_until} testId={`agent-muted-${agent.id}`} />
      </Table.Td>
      <Table.Td maw={220}>
        <Text size="sm" truncate="end" title={agent.hostname}>
          {agent.hostname}
        </Text>
      </Table.Td>
      <Table.Td ff="monospace" fz="sm">
        {primaryAddress(agent)}
      </Table.Td>
      <Table.Td>
        <Group gap={4}>
          <AgentStatusBadge status={agent.status} unreachable={agent.unreachable} testId={`agent-status-${agent.id}`} />
          {agent.maintenance && <MaintenanceBadge size="sm" testId={`agent-maintenance-${agent.id}`} />}
        </Group>
      </Table.Td>
      <Table.Td maw={220}>
        <Text size="sm" c="dimmed" truncate="end" title={agent.os ?? undefined}>
          {agent.os ?? '-'}
        </Text>
      </Table.Td>
      <Table.Td ff="monospace" fz="sm">
        {agent.version ?? '-'}
      </Table.Td>
      <Table.Td>
        <AgentActions agent={agent} onDelete={onDelete} />
      </Table.Td>
    </Table.Tr>
  );
});

/** The table view: name, host, IP, status, OS, version and actions (spec section 2). */
export const AgentTable = memo(function AgentTable({ agents, onDelete }: { agents: AgentDto[]; onDelete: (agent: AgentDto) => void }) {
  const { t } = useTranslation();
  return (
    <Table.ScrollContainer minWidth={820}>
      <Table striped highlightOnHover verticalSpacing="sm" data-testid="agents-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('agents.columns.name')}</Table.Th>
            <Table.Th>{t('agents.columns.host')}</Table.Th>
            <Table.Th>{t('agents.columns.ip')}</Table.Th>
            <Table.Th>{t('agents.columns.status')}</Table.Th>
            <Table.Th>{t('agents.columns.os')}</Table.Th>
            <Table.Th>{t('agents.columns.version')}</Table.Th>
            <Table.Th w={120}>{t('agents.columns.actions')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {agents.map((agent) => (
            <AgentTableRow key={agent.id} agent={agent} onDelete={onDelete} />
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
});
