import { Badge, Card, Table, Text } from '@mantine/core';
import type { AgentSensorReport } from '@vigil/proto';
import { useTranslation } from 'react-i18next';
import { formatCelsius, SENSOR_COLORS, sensorLevel } from '../insight';
import { InsightNotice } from './InsightGate';

/** The host's temperatures, coloured against each chip's own high and critical marks (issue 32). */
export function AgentSensorsPanel({ sensors }: { sensors: AgentSensorReport[] | null }) {
  const { t } = useTranslation();
  if (!sensors || sensors.length === 0) return <InsightNotice testId="agent-sensors-none">{t('agent.insight.sensors.none')}</InsightNotice>;
  return (
    <Card withBorder radius="md" padding="lg">
      <Text fw={600} mb="sm">
        {t('agent.insight.sensors.title')}
      </Text>
      <Table.ScrollContainer minWidth={420}>
        <Table verticalSpacing="xs" data-testid="agent-sensors">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('agent.insight.sensors.name')}</Table.Th>
              <Table.Th ta="right">{t('agent.insight.sensors.temperature')}</Table.Th>
              <Table.Th ta="right">{t('agent.insight.sensors.high')}</Table.Th>
              <Table.Th ta="right">{t('agent.insight.sensors.critical')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {sensors.map((sensor) => {
              const level = sensorLevel(sensor);
              const color = SENSOR_COLORS[level];
              return (
                <Table.Tr key={sensor.name} data-testid="agent-sensor-row">
                  <Table.Td fz="sm" style={{ overflowWrap: 'anywhere' }}>
                    {sensor.name}
                  </Table.Td>
                  <Table.Td ta="right">
                    <Badge color={color ?? 'gray'} variant={color ? 'light' : 'outline'} data-testid="sensor-celsius" data-level={level}>
                      {formatCelsius(sensor.celsius)}
                    </Badge>
                  </Table.Td>
                  <Table.Td ta="right" ff="monospace" fz="sm" c="dimmed">
                    {formatCelsius(sensor.high)}
                  </Table.Td>
                  <Table.Td ta="right" ff="monospace" fz="sm" c="dimmed">
                    {formatCelsius(sensor.critical)}
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Card>
  );
}
