import { Anchor, Group, Stack, Table, Text } from '@mantine/core';
import type { MonitorDto } from '@vigil/proto';
import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { monitorDetailPath } from '../../../routes/paths';
import { MutedIcon } from '../../alerts/components/MutedBadge';
import { MonitorMaintenanceHint } from '../../maintenance/components/MonitorMaintenance';
import { formatResponseTime, formatUptime } from '../format';
import { CertificateBadge } from './CertificateBadge';
import { MonitorActions } from './MonitorActions';
import { MonitorStatusBadge } from './MonitorStatusBadge';
import { MonitorTarget } from './MonitorTarget';
import { MonitorTags } from './MonitorTags';
import { MonitorTypeBadge } from './MonitorTypeBadge';
import classes from './MonitorTable.module.css';

interface RowProps {
  monitor: MonitorDto;
  onDelete: (monitor: MonitorDto) => void;
}

/** One row, memoised: a pushed check re-renders the row it changed, not the whole page. */
const MonitorTableRow = memo(function MonitorTableRow({ monitor, onDelete }: RowProps) {
  const { certificate } = monitor;
  return (
    <Table.Tr data-testid={`monitor-row-${monitor.id}`}>
      <Table.Td>
        <Anchor component={Link} to={monitorDetailPath(monitor.id)} size="sm" fw={500} className={classes.name}>
          {monitor.name}
        </Anchor>
        <MutedIcon until={monitor.muted_until} testId={`monitor-muted-${monitor.id}`} />
        <MonitorTags tags={monitor.tags ?? []} testId={`monitor-tags-${monitor.id}`} />
      </Table.Td>
      <Table.Td maw={340} visibleFrom="sm">
        <Group gap={6} wrap="nowrap">
          <MonitorTypeBadge type={monitor.type} testId={`monitor-type-${monitor.id}`} />
          <MonitorTarget monitor={monitor} miw={0} testId={`monitor-target-${monitor.id}`} />
        </Group>
      </Table.Td>
      <Table.Td>
        {/* The badges keep their width; on a phone the name wraps instead. */}
        <Stack gap={4} align="flex-start" w="max-content">
          <Group gap={2} wrap="nowrap">
            <MonitorStatusBadge monitor={monitor} testId={`monitor-status-${monitor.id}`} />
            {monitor.active && monitor.status === 'maintenance' && <MonitorMaintenanceHint monitorId={monitor.id} />}
          </Group>
          {certificate && (
            <CertificateBadge
              size="sm"
              daysRemaining={certificate.days_remaining}
              thresholds={monitor.cert_expiry_days}
              testId={`monitor-certificate-${monitor.id}`}
            />
          )}
        </Stack>
      </Table.Td>
      <Table.Td ta="right" ff="monospace" visibleFrom="sm">
        {formatResponseTime(monitor.response_time)}
      </Table.Td>
      <Table.Td ta="right" ff="monospace" visibleFrom="sm">
        {formatUptime(monitor.uptime)}
      </Table.Td>
      <Table.Td>
        <MonitorActions monitor={monitor} onDelete={onDelete} />
      </Table.Td>
    </Table.Tr>
  );
});

/**
 * The list view: name, type and target, status (with the certificate's days), response time (ms), uptime (%) and
 * actions. On a phone: name, status and actions only, without sideways scrolling.
 */
export const MonitorTable = memo(function MonitorTable({
  monitors,
  onDelete,
}: {
  monitors: MonitorDto[];
  onDelete: (monitor: MonitorDto) => void;
}) {
  const { t } = useTranslation();
  return (
    <Table.ScrollContainer minWidth={760} className={classes.scroll}>
      <Table striped highlightOnHover verticalSpacing="sm" data-testid="monitors-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('monitors.columns.name')}</Table.Th>
            <Table.Th visibleFrom="sm">{t('monitors.columns.target')}</Table.Th>
            <Table.Th>{t('monitors.columns.status')}</Table.Th>
            <Table.Th ta="right" visibleFrom="sm">
              {t('monitors.columns.responseTime')}
            </Table.Th>
            <Table.Th ta="right" visibleFrom="sm">
              {t('monitors.columns.uptime')}
            </Table.Th>
            <Table.Th w={108}>
              <Text size="sm" fw={700} visibleFrom="sm" span>
                {t('monitors.columns.actions')}
              </Text>
            </Table.Th>
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
