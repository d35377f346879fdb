import { Alert, Card, Progress, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import type { AgentDto } from '@vigil/proto';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { InfoItem } from '../../../components/InfoItem/InfoItem';
import { formatDateTime } from '../../monitors/format';
import {
  barColor,
  formatBytes,
  formatLoad,
  formatPercent,
  formatRate,
  formatSpan,
  networkPercent,
  percentOf,
  spanOfSeconds,
  usage,
} from '../format';
import { ResourceBar } from './ResourceBar';

function orDash(value: string | number | null | undefined): string | number {
  return value === null || value === undefined || value === '' ? '-' : value;
}

/** The system tab: what the host is, its resource bars, and the per-disk and per-interface figures (spec section 2). */
export const AgentSystemTab = memo(function AgentSystemTab({ agent }: { agent: AgentDto }) {
  const { t, i18n } = useTranslation();
  const { cpu, memory, disk } = usage(agent);
  const swap = percentOf(agent.swap_used, agent.swap_total);
  const ofTotal = (used: number | null, total: number | null) =>
    used === null || total === null ? undefined : t('agent.system.usedOfTotal', { used: formatBytes(used), total: formatBytes(total) });
  const span = (seconds: number | null) =>
    seconds === null ? '-' : formatSpan(spanOfSeconds(seconds), (unit, count) => t(`agent.duration.${unit}`, { count }));

  return (
    <Stack gap="lg" data-testid="agent-system">
      <Card withBorder radius="md" padding="lg">
        <Text fw={600} mb="md">
          {t('agent.system.info')}
        </Text>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="md" verticalSpacing="md">
          <InfoItem label={t('agent.system.os')} testId="agent-os">
            {orDash(agent.os)}
          </InfoItem>
          <InfoItem label={t('agent.system.version')} testId="agent-version">
            {orDash(agent.version)}
          </InfoItem>
          <InfoItem label={t('agent.system.hostname')}>{agent.hostname}</InfoItem>
          <InfoItem label={t('agent.system.ip')} testId="agent-ip">
            {agent.ip_addresses.length > 0 ? agent.ip_addresses.join(', ') : orDash(agent.ip_address)}
          </InfoItem>
          <InfoItem label={t('agent.system.platform')}>{orDash(agent.platform)}</InfoItem>
          <InfoItem label={t('agent.system.kernel')}>{orDash(agent.kernel)}</InfoItem>
          <InfoItem label={t('agent.system.arch')}>{orDash(agent.arch)}</InfoItem>
          <InfoItem label={t('agent.system.cpuModel')}>{orDash(agent.cpu_model)}</InfoItem>
          <InfoItem label={t('agent.system.cpuCores')}>{orDash(agent.cpu_cores)}</InfoItem>
          <InfoItem label={t('agent.system.load')}>{formatLoad(agent)}</InfoItem>
          <InfoItem label={t('agent.system.hostUptime')}>{span(agent.host_uptime)}</InfoItem>
          <InfoItem label={t('agent.system.interval')}>{t('agent.system.seconds', { value: agent.interval })}</InfoItem>
          <InfoItem label={t('agent.system.protocol')}>{t(`agent.system.protocols.${agent.protocol}`)}</InfoItem>
          <InfoItem label={t('agent.system.registered')}>{formatDateTime(agent.created_at, i18n.language)}</InfoItem>
        </SimpleGrid>
      </Card>

      <Card withBorder radius="md" padding="lg">
        <Text fw={600} mb="md">
          {t('agent.system.resources')}
        </Text>
        {agent.cpu_usage === null && (
          <Alert variant="light" color="blue" icon={<IconInfoCircle size={18} />} mb="md">
            {t('agent.system.noReport')}
          </Alert>
        )}
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="lg">
          <ResourceBar label={t('agent.system.cpu')} percent={cpu} value={formatPercent(cpu)} testId="agent-bar-cpu" />
          <ResourceBar
            label={t('agent.system.memory')}
            percent={memory}
            value={formatPercent(memory)}
            detail={ofTotal(agent.memory_used, agent.memory_total)}
            testId="agent-bar-memory"
          />
          <ResourceBar
            label={t('agent.system.disk')}
            percent={disk}
            value={formatPercent(disk)}
            detail={ofTotal(agent.disk_used, agent.disk_total)}
            testId="agent-bar-disk"
          />
          <ResourceBar
            label={t('agent.system.rx')}
            percent={networkPercent(agent.network_rx)}
            value={formatRate(agent.network_rx)}
            testId="agent-bar-rx"
          />
          <ResourceBar
            label={t('agent.system.tx')}
            percent={networkPercent(agent.network_tx)}
            value={formatRate(agent.network_tx)}
            testId="agent-bar-tx"
          />
          {agent.swap_total !== null && agent.swap_total > 0 && (
            <ResourceBar
              label={t('agent.system.swap')}
              percent={swap}
              value={formatPercent(swap)}
              detail={ofTotal(agent.swap_used, agent.swap_total)}
              testId="agent-bar-swap"
            />
          )}
        </SimpleGrid>
      </Card>

      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
        <Card withBorder radius="md" padding="lg">
          <Text fw={600} mb="sm">
            {t('agent.system.disks')}
          </Text>
          {agent.disks.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('agent.system.noDisks')}
            </Text>
          ) : (
            <Table.ScrollContainer minWidth={440}>
              <Table verticalSpacing="xs" data-testid="agent-disks">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('agent.system.mount')}</Table.Th>
                    <Table.Th>{t('agent.system.fs')}</Table.Th>
                    <Table.Th ta="right">{t('agent.system.used')}</Table.Th>
                    <Table.Th ta="right">{t('agent.system.size')}</Table.Th>
                    <Table.Th w={140}>{t('agent.system.usage')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {agent.disks.map((entry) => {
                    const percent = percentOf(entry.used, entry.total);
                    return (
                      <Table.Tr key={entry.mount}>
                        <Table.Td ff="monospace" fz="sm" style={{ overflowWrap: 'anywhere' }}>
                          {entry.mount}
                        </Table.Td>
                        <Table.Td fz="sm">{entry.fs || '-'}</Table.Td>
                        <Table.Td ta="right" fz="sm">
                          {formatBytes(entry.used)}
                        </Table.Td>
                        <Table.Td ta="right" fz="sm">
                          {formatBytes(entry.total)}
                        </Table.Td>
                        <Table.Td>
                          <Stack gap={2}>
                            <Text size="xs" ff="monospace">
                              {formatPercent(percent)}
                            </Text>
                            <Progress value={percent ?? 0} color={barColor(percent)} size="sm" radius="xl" />
                          </Stack>
                        </Table.Td>
                      </Table.Tr>
                    );
                  })}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </Card>
        <Card withBorder radius="md" padding="lg">
          <Text fw={600} mb="sm">
            {t('agent.system.interfaces')}
          </Text>
          {agent.interfaces.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('agent.system.noInterfaces')}
            </Text>
          ) : (
            <Table verticalSpacing="xs" data-testid="agent-interfaces">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('agent.system.interface')}</Table.Th>
                  <Table.Th ta="right">{t('agent.system.rxRate')}</Table.Th>
                  <Table.Th ta="right">{t('agent.system.txRate')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {agent.interfaces.map((entry) => (
                  <Table.Tr key={entry.name}>
                    <Table.Td ff="monospace" fz="sm">
                      {entry.name}
                    </Table.Td>
                    <Table.Td ta="right" ff="monospace" fz="sm">
                      {formatRate(entry.rx_rate)}
                    </Table.Td>
                    <Table.Td ta="right" ff="monospace" fz="sm">
                      {formatRate(entry.tx_rate)}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Card>
      </SimpleGrid>
    </Stack>
  );
});
