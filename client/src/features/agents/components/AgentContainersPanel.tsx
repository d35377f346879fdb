import { Badge, Card, Group, Pagination, Stack, Table, Text, TextInput, UnstyledButton } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconSearch } from '@tabler/icons-react';
import type { AgentContainerReport } from '@vigil/proto';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatBytes, formatPercent, formatRate } from '../format';
import { containerHealthColor, containerStateColor, type ContainerOrder, type ContainerSort, shownContainers } from '../insight';
import { InsightNotice } from './InsightGate';

/** Rows per page: a host with 500 containers stays one quick render. */
export const CONTAINERS_PAGE_SIZE = 50;

function SortHeader({
  by,
  order,
  onSort,
  label,
  right,
}: {
  by: ContainerSort;
  order: ContainerOrder;
  onSort: (by: ContainerSort) => void;
  label: string;
  right?: boolean;
}) {
  const Arrow = order.descending ? IconArrowDown : IconArrowUp;
  return (
    <Table.Th ta={right ? 'right' : undefined}>
      <UnstyledButton onClick={() => onSort(by)} data-testid={`containers-sort-${by}`} fz="sm" fw={600}>
        <Group gap={4} wrap="nowrap" justify={right ? 'flex-end' : undefined}>
          {label}
          {order.by === by && <Arrow size={12} />}
        </Group>
      </UnstyledButton>
    </Table.Th>
  );
}

/**
 * The host's Docker/Podman containers (issue 32): searchable, sortable and paged. `null` means the agent cannot read
 * an Engine API socket, which is not the same as a host without containers.
 */
export function AgentContainersPanel({ containers }: { containers: AgentContainerReport[] | null }) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [order, setOrder] = useState<ContainerOrder>({ by: 'state', descending: false });
  const [page, setPage] = useState(1);
  const shown = useMemo(() => shownContainers(containers ?? [], search, order), [containers, search, order]);

  if (containers === null)
    return <InsightNotice testId="agent-containers-unreadable">{t('agent.insight.containers.unreadable')}</InsightNotice>;
  if (containers.length === 0) return <InsightNotice testId="agent-containers-none">{t('agent.insight.containers.none')}</InsightNotice>;

  const pages = Math.max(1, Math.ceil(shown.length / CONTAINERS_PAGE_SIZE));
  const current = Math.min(page, pages);
  const rows = shown.slice((current - 1) * CONTAINERS_PAGE_SIZE, current * CONTAINERS_PAGE_SIZE);
  const sort = (by: ContainerSort) => {
    // A figure column starts with the largest; a text column from A.
    setOrder((was) => (was.by === by ? { by, descending: !was.descending } : { by, descending: by === 'cpu' || by === 'memory' }));
    setPage(1);
  };
  const header = (by: ContainerSort, right = false) => (
    <SortHeader by={by} order={order} onSort={sort} label={t(`agent.insight.containers.${by}`)} right={right} />
  );

  return (
    <Card withBorder radius="md" padding="lg" data-testid="agent-containers">
      <Stack gap="md">
        <Group justify="space-between" gap="sm">
          <Text fw={600}>{t('agent.insight.containers.count', { count: containers.length })}</Text>
          <TextInput
            size="xs"
            leftSection={<IconSearch size={14} />}
            placeholder={t('agent.insight.containers.search')}
            aria-label={t('agent.insight.containers.search')}
            value={search}
            onChange={(event) => {
              setSearch(event.currentTarget.value);
              setPage(1);
            }}
            data-testid="agent-containers-search"
          />
        </Group>
        {shown.length === 0 ? (
          <Text size="sm" c="dimmed" data-testid="agent-containers-no-match">
            {t('agent.insight.containers.noMatch')}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={860}>
            <Table verticalSpacing="xs" data-testid="agent-containers-table">
              <Table.Thead>
                <Table.Tr>
                  {header('name')}
                  {header('state')}
                  {header('health')}
                  {header('cpu', true)}
                  {header('memory', true)}
                  {header('image')}
                  <Table.Th ta="right">{t('agent.insight.containers.net')}</Table.Th>
                  <Table.Th ta="right">{t('agent.insight.containers.block')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((entry) => (
                  <Table.Tr key={entry.id} data-testid="agent-container-row">
                    <Table.Td fz="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                      {entry.name}
                    </Table.Td>
                    <Table.Td>
                      <Badge
                        color={containerStateColor(entry.state)}
                        variant="light"
                        data-testid="container-state"
                        data-color={containerStateColor(entry.state)}
                      >
                        {t(`agent.insight.containers.states.${entry.state}`)}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      <Badge
                        color={containerHealthColor(entry.health)}
                        variant="light"
                        data-testid="container-health"
                        data-color={containerHealthColor(entry.health)}
                      >
                        {t(`agent.insight.containers.healths.${entry.health}`)}
                      </Badge>
                    </Table.Td>
                    <Table.Td ta="right" ff="monospace" fz="sm">
                      {formatPercent(entry.cpu)}
                    </Table.Td>
                    <Table.Td ta="right" ff="monospace" fz="sm">
                      {entry.memory_limit > 0
                        ? t('agent.system.usedOfTotal', { used: formatBytes(entry.memory_used), total: formatBytes(entry.memory_limit) })
                        : formatBytes(entry.memory_used)}
                    </Table.Td>
                    <Table.Td fz="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                      {entry.image}
                    </Table.Td>
                    <Table.Td ta="right" ff="monospace" fz="xs">
                      ↓ {formatRate(entry.net_rx_rate)}
                      <br />↑ {formatRate(entry.net_tx_rate)}
                    </Table.Td>
                    <Table.Td ta="right" ff="monospace" fz="xs">
                      R {formatRate(entry.block_read_rate)}
                      <br />W {formatRate(entry.block_write_rate)}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        {pages > 1 && <Pagination total={pages} value={current} onChange={setPage} size="sm" data-testid="agent-containers-pages" />}
      </Stack>
    </Card>
  );
}
