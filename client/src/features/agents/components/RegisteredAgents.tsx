import { Anchor, Card, Group, Loader, Stack, Text } from '@mantine/core';
import type { AgentDto } from '@vigil/proto';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { agentDetailPath } from '../../../routes/paths';
import { primaryAddress } from '../format';
import { AgentStatusBadge } from './AgentStatusBadge';

/** The agents that registered with the token on screen, as they arrive; a waiting note until the first one does. */
export function RegisteredAgents({ agents }: { agents: AgentDto[] }) {
  const { t } = useTranslation();
  return (
    <Card withBorder radius="md" padding="lg">
      <Text fw={600} mb="sm">
        {t('agent.create.registered')}
      </Text>
      {agents.length === 0 ? (
        <Group gap="sm" data-testid="agent-registered-waiting">
          <Loader size="xs" type="dots" />
          <Text size="sm" c="dimmed">
            {t('agent.create.waiting')}
          </Text>
        </Group>
      ) : (
        <Stack gap="xs" data-testid="agent-registered-list">
          {agents.map((agent) => (
            <Group key={agent.id} justify="space-between" wrap="nowrap" data-testid={`agent-registered-${agent.id}`}>
              <div style={{ minWidth: 0 }}>
                <Text fw={500} truncate="end">
                  {agent.name}
                </Text>
                <Text size="xs" c="dimmed" truncate="end">
                  {agent.hostname} · {primaryAddress(agent)}
                </Text>
              </div>
              <Group gap="sm" wrap="nowrap">
                <AgentStatusBadge status={agent.status} testId={`agent-registered-status-${agent.id}`} />
                <Anchor component={Link} to={agentDetailPath(agent.id)} size="sm" data-testid={`agent-registered-link-${agent.id}`}>
                  {t('agent.create.viewAgent')}
                </Anchor>
              </Group>
            </Group>
          ))}
        </Stack>
      )}
    </Card>
  );
}
