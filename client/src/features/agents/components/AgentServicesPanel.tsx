import { Badge, Card, Table, Text } from '@mantine/core';
import type { AgentServiceReport } from '@vigil/proto';
import { useTranslation } from 'react-i18next';
import { serviceStateColor } from '../insight';
import { InsightNotice } from './InsightGate';

/** The systemd units the agent was asked to watch, with their state (issue 32). */
export function AgentServicesPanel({ services }: { services: AgentServiceReport[] | null }) {
  const { t } = useTranslation();
  if (!services || services.length === 0)
    return <InsightNotice testId="agent-services-none">{t('agent.insight.services.none')}</InsightNotice>;
  return (
    <Card withBorder radius="md" padding="lg">
      <Text fw={600} mb="sm">
        {t('agent.insight.services.title')}
      </Text>
      <Table.ScrollContainer minWidth={360}>
        <Table verticalSpacing="xs" data-testid="agent-services">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('agent.insight.services.name')}</Table.Th>
              <Table.Th>{t('agent.insight.services.state')}</Table.Th>
              <Table.Th>{t('agent.insight.services.subState')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {services.map((service) => (
              <Table.Tr key={service.name} data-testid="agent-service-row">
                <Table.Td fz="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                  {service.name}
                </Table.Td>
                <Table.Td>
                  <Badge
                    color={serviceStateColor(service.state)}
                    variant="light"
                    data-testid="service-state"
                    data-color={serviceStateColor(service.state)}
                  >
                    {t(`agent.insight.services.states.${service.state}`)}
                  </Badge>
                </Table.Td>
                <Table.Td fz="sm" c="dimmed">
                  {service.sub_state ?? '-'}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Card>
  );
}
