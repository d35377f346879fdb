import { Anchor, Table, Text } from '@mantine/core';
import type { MonitorDto } from '@vigil/proto';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { monitorDetailPath } from '../../../routes/paths';
import { formatResponseTime, formatUptime } from '../format';
import { MonitorActions } from './MonitorActions';
import { MonitorStatusBadge } from './MonitorStatusBadge';

interface RowProps {
  monitor: MonitorDto;
  onDelete: (monitor: MonitorDto) => void;
}

/** One row, memoised: a pushed check re-renders the row it changed, not the whole page. */
const MonitorTableRow = memo(function MonitorTableRow({ monitor, onDelete }: RowProps) {
  return (
    <Table.Tr data-testid={`monitor-row-${monitor.id}`}>
      <Table.Td>
        <Anchor component={Link} to={monitorDetailPath(monitor.id)} size="sm" fw={500}>
          {monitor.name}
        </Anchor>
      </Table.Td>
      <Table.Td maw={320}>
        <Text size="sm" c="dimmed" truncate="end" title={monitor.url}>
          {monitor.url}
        </Text>
      </Table.Td>
      <Table.Td>
        <MonitorStatusBadge monitor={monitor} testId={`monitor-status-${monitor.id}`} />
      </Table.Td>
      <Table.Td ta="right" ff="monospace">
        {formatResponseTime(monitor.response_time)}
      </Table.Td>
      <Table.Td ta="right" ff="monospace">
        {formatUptime(monitor.uptime)}
      </Table.Td>
      <Table.Td>
        <MonitorActions monitor={monitor} onDelete={onDelete} />
      </Table.Td>
    </Table.Tr>
  );
});

/** The list view: name, url, status, response time (ms), uptime (%) and actions (spec section 2). */
export const MonitorTable = memo(function MonitorTable({
  monitors,
  onDelete,
}: {
  monitors: MonitorDto[];
  onDelete: (monitor: MonitorDto) => void;
}) {
  const { t } = useTranslation();
  return (
    <Table.ScrollContainer minWidth={760}>
      <Table striped highlightOnHover verticalSpacing="sm" data-testid="monitors-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('monitors.columns.name')}</Table.Th>
            <Table.Th>{t('monitors.columns.url')}</Table.Th>
            <Table.Th>{t('monitors.columns.status')}</Table.Th>
            <Table.Th ta="right">{t('monitors.columns.responseTime')}</Table.Th>
            <Table.Th ta="right">{t('monitors.columns.uptime')}</Table.Th>
            <Table.Th w={120}>{t('monitors.columns.actions')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {monitors.map((monitor) => (
            <MonitorTableRow key={monitor.id} monitor={monitor} onDelete={onDelete} />
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
});
