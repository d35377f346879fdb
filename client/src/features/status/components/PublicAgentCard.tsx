import { Card, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import type { PublicAgent } from '@vigil/proto';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { InfoItem } from '../../../components/InfoItem/InfoItem';
import { AgentStatusBadge } from '../../agents/components/AgentStatusBadge';
import { ResourceBar } from '../../agents/components/ResourceBar';
import { clampPercent, formatPercent } from '../../agents/format';
import { formatDateTime } from '../../monitors/format';

interface PublicAgentCardProps {
  agent: PublicAgent;
  /** Resource bars; off: the host's system information instead. */
  showResources: boolean;
}

/** A server on the public page: online or offline, host and address, resource bars or system facts, update time. */
export const PublicAgentCard = memo(function PublicAgentCard({ agent, showResources }: PublicAgentCardProps) {
  const { t, i18n } = useTranslation();
  const address = agent.ip_address ?? '-';
  return (
    <Card withBorder radius="md" padding="md" className="vigil-status-agent" data-testid={`status-agent-${agent.id}`}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Text fw={600} truncate="end" title={agent.name}>
            {agent.name}
          </Text>
          <AgentStatusBadge
            status={agent.status}
            mode="detail"
            unreachable={agent.unreachable}
            testId={`status-agent-status-${agent.id}`}
          />
        </Group>
        <Text size="xs" c="dimmed" truncate="end">
          {agent.hostname} · {address}
        </Text>
        {showResources ? (
          <Stack gap={6} data-testid={`status-agent-resources-${agent.id}`}>
            {(['cpu', 'memory', 'disk'] as const).map((resource) => {
              const percent = clampPercent(agent[resource]);
              return (
                <ResourceBar
                  key={resource}
                  size="xs"
                  label={t(`agents.card.${resource}`)}
                  percent={percent}
                  value={formatPercent(percent)}
                />
              );
            })}
          </Stack>
        ) : (
          <SimpleGrid cols={3} spacing="xs" data-testid={`status-agent-system-${agent.id}`}>
            <InfoItem label={t('agent.system.hostname')}>{agent.hostname || '-'}</InfoItem>
            <InfoItem label={t('agent.system.ip')}>{address}</InfoItem>
            <InfoItem label={t('agent.system.os')}>{agent.os ?? '-'}</InfoItem>
          </SimpleGrid>
        )}
        <Text size="xs" c="dimmed">
          {t('statusPage.updated', { time: formatDateTime(agent.updated_at, i18n.language) })}
        </Text>
      </Stack>
    </Card>
  );
});
