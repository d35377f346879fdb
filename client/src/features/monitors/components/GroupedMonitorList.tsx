import { ActionIcon, Anchor, Card, Group, Loader, Pagination, Stack, Text } from '@mantine/core';
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import type { MonitorDto } from '@vigil/proto';
import { useCallback, useEffect, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { useRead } from '../../../api/useRead';
import { liveCache } from '../../../live/cache';
import { monitorDetailPath } from '../../../routes/paths';
import { type MonitorListQuery, monitorsApi } from '../api';
import { MonitorStatusBadge } from './MonitorStatusBadge';
import { MonitorTarget } from './MonitorTarget';

/** Rows read per level and page: the server pages, so a group of thousands opens at once. */
export const GROUPED_PAGE_SIZE = 50;

/** The list's filters the top level is read with (members of an opened group are all shown). */
export type GroupedFilters = Pick<MonitorListQuery, 'filter' | 'type' | 'status' | 'search'>;

const UNFILTERED: GroupedFilters = { filter: 'all', type: 'all', status: 'all', search: '' };

const table = liveCache.monitors;

/**
 * Puts a level's rows into the shared cache under its own view, so the realtime module's pushes (checks, status
 * changes) reach them as they reach the flat list; the view is dropped with the level.
 */
function useCachedLevel(view: string, monitors: MonitorDto[] | undefined): void {
  useEffect(() => {
    if (!monitors) return;
    table.write(monitors);
    table.show(
      view,
      monitors.map((monitor) => monitor.id),
    );
  }, [view, monitors]);
  useEffect(() => () => table.show(view, []), [view]);
}

/** A row as the cache holds it now (pushed status and figures), or as read when the cache no longer holds it. */
function useLiveMonitor(read: MonitorDto): MonitorDto {
  const held = useSyncExternalStore(table.subscribe, () => table.get(read.id));
  return held ?? read;
}

/**
 * One level of the grouped list: monitors in no group (`topLevel=true`) or one group's members (`parentId=`), a page
 * at a time. A group's row opens the next level below it, so nesting is read only as far as someone opens it.
 */
export function MonitorLevel({
  parentId,
  depth,
  refreshKey,
  filters = UNFILTERED,
}: {
  parentId?: number;
  depth: number;
  refreshKey: string | number;
  filters?: GroupedFilters;
}) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const { filter, type, status, search } = filters;
  const read = useRead(
    // `refreshKey` is in the key on purpose: a refresh reads the level again.
    useCallback(
      (signal: AbortSignal) => {
        const query = { page, pageSize: GROUPED_PAGE_SIZE, filter, type, status, search };
        return monitorsApi.list(parentId === undefined ? { ...query, topLevel: true } : { ...query, parentId }, signal);
      },
      // eslint-disable-next-line react-hooks/exhaustive-deps
      [parentId, page, refreshKey, filter, type, status, search],
    ),
  );
  const level = read.value;
  useCachedLevel(`grouped:${parentId ?? 'top'}`, level?.monitors);

  if (read.status === 'error')
    return (
      <Text c="red" size="sm">
        {t('monitors.loadingError')}
      </Text>
    );
  if (!level) return <Loader size="sm" m="sm" />;
  if (level.monitors.length === 0) {
    return (
      <Text c="dimmed" size="sm" pl="sm">
        {t(parentId === undefined ? 'monitors.empty' : 'monitor.group.membersEmpty')}
      </Text>
    );
  }
  const pages = Math.ceil(level.total / GROUPED_PAGE_SIZE);
  return (
    <Stack gap={0} style={{ opacity: read.status === 'loading' ? 0.6 : 1 }}>
      {level.monitors.map((monitor) => (
        <MonitorTreeRow key={monitor.id} monitor={monitor} depth={depth} refreshKey={refreshKey} />
      ))}
      {pages > 1 && <Pagination total={pages} value={page} onChange={setPage} size="xs" mt="xs" />}
    </Stack>
  );
}

/** A monitor's line; a group's opens and closes its members beneath it, indented a step (narrow screens included). */
function MonitorTreeRow({ monitor: read, depth, refreshKey }: { monitor: MonitorDto; depth: number; refreshKey: string | number }) {
  const { t } = useTranslation();
  const monitor = useLiveMonitor(read);
  const [open, setOpen] = useState(false);
  const group = monitor.type === 'group';
  return (
    <>
      <Group
        justify="space-between"
        wrap="nowrap"
        gap="xs"
        py={6}
        pl={`calc(${Math.min(depth, 6)} * var(--mantine-spacing-md))`}
        style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}
        data-testid={`grouped-row-${monitor.id}`}
      >
        <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
          {group ? (
            <ActionIcon
              variant="subtle"
              size="sm"
              aria-expanded={open}
              aria-label={t(open ? 'monitors.grouped.collapse' : 'monitors.grouped.expand', { name: monitor.name })}
              onClick={() => setOpen((value) => !value)}
              data-testid={`grouped-toggle-${monitor.id}`}
            >
              {open ? <IconChevronDown size={16} /> : <IconChevronRight size={16} />}
            </ActionIcon>
          ) : (
            <span style={{ width: 22, flexShrink: 0 }} />
          )}
          <Stack gap={0} style={{ minWidth: 0 }}>
            <Anchor component={Link} to={monitorDetailPath(monitor.id)} size="sm" fw={500} truncate="end">
              {monitor.name}
            </Anchor>
            <MonitorTarget monitor={monitor} size="xs" />
          </Stack>
        </Group>
        <Group gap={4} wrap="nowrap">
          <MonitorStatusBadge monitor={monitor} />
        </Group>
      </Group>
      {group && open && <MonitorLevel parentId={monitor.id} depth={depth + 1} refreshKey={refreshKey} />}
    </>
  );
}

/**
 * The monitor list shown by group: monitors in no group, read with the list's filters, groups opening onto their
 * members. Shown rows follow pushes through the cache; a change of filters starts again from the first page.
 */
export function GroupedMonitorList({ refreshKey, filters = UNFILTERED }: { refreshKey: string | number; filters?: GroupedFilters }) {
  const { filter, type, status, search } = filters;
  return (
    <Card withBorder radius="md" padding="sm" data-testid="monitors-grouped">
      <MonitorLevel key={JSON.stringify([filter, type, status, search])} depth={0} refreshKey={refreshKey} filters={filters} />
    </Card>
  );
}
