import { Anchor, Card, Group, Stack, Text } from '@mantine/core';
import type { AgentDto } from '@vigil/proto';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { agentDetailPath } from '../../../routes/paths';
import { MutedIcon } from '../../alerts/components/MutedBadge';
import { MaintenanceBadge } from '../../maintenance/components/MaintenanceBadge';
import { formatDateTime } from '../../monitors/format';
import { formatPercent, primaryAddress, usage } from '../format';
import { AgentActions } from './AgentActions';
import { AgentStatusBadge } from './AgentStatusBadge';
import { ResourceBar } from './ResourceBar';

interface AgentCardProps {
  agent: AgentDto;
  /** Given on the list: the card then offers details, edit and delete. */
  onDelete?: (agent: AgentDto) => void;
  testId?: string;
}

/** One agent at a glance: name, status, host and address, OS, CPU/memory/disk bars. Memoised like table rows. */
export const AgentCard = memo(function AgentCard({ agent, onDelete, testId }: AgentCardProps) {
  const { t, i18n } = useTranslation();
  const { cpu, memory, disk } = usage(agent);
  const reported = agent.cpu_usage !== null;
  return (
    <Card withBorder radius="md" padding="md" data-testid={testId}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Group gap={4} wrap="nowrap" miw={0}>
            <Anchor component={Link} to={agentDetailPath(agent.id)} fw={600} truncate="end">
              {agent.name}
            </Anchor>
            <MutedIcon until={agent.muted_until} testId={`agent-muted-${agent.id}`} />
          </Group>
          <Group gap={4} wrap="nowrap">
            {agent.maintenance && <MaintenanceBadge size="sm" testId={`agent-maintenance-${agent.id}`} />}
            <AgentStatusBadge status={agent.status} unreachable={agent.unreachable} testId={`agent-status-${agent.id}`} />
          </Group>
        </Group>
        <Text size="xs" c="dimmed" truncate="end" title={`${agent.hostname} · ${primaryAddress(agent)}`}>
          {agent.hostname} · {primaryAddress(agent)}
        </Text>
        <Text size="xs" c="dimmed" truncate="end">
          {[agent.os, agent.arch].filter(Boolean).join(' · ') || '-'}
        </Text>
        <Stack gap={6} mt={4}>
          <ResourceBar size="xs" label={t('agents.card.cpu')} percent={cpu} value={formatPercent(cpu)} />
          <ResourceBar size="xs" label={t('agents.card.memory')} percent={memory} value={formatPercent(memory)} />
          <ResourceBar size="xs" label={t('agents.card.disk')} percent={disk} value={formatPercent(disk)} />
        </Stack>
        <Group justify="space-between" wrap="nowrap" mt={4}>
          <Text size="xs" c="dimmed" truncate="end">
            {reported ? t('agents.card.updated', { time: formatDateTime(agent.updated_at, i18n.language) }) : t('agents.card.noReport')}
          </Text>
          {onDelete && <AgentActions agent={agent} onDelete={onDelete} />}
        </Group>
      </Stack>
    </Card>
  );
});
