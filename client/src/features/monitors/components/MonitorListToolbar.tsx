import { Group, NativeSelect, SegmentedControl } from '@mantine/core';
import { IconLayoutGrid, IconList } from '@tabler/icons-react';
import { MONITOR_STATUSES, MONITOR_TYPES, type MonitorFilter, type MonitorStatus, type MonitorType } from '@vigil/proto';
import { useTranslation } from 'react-i18next';
import { IconSegmentLabel, SearchInput } from '../../../components/ListControls/ListControls';
import type { MonitorCounts } from '../live';
import type { MonitorView } from '../useMonitorView';
import { TagFilter } from './TagFilter';

interface MonitorListToolbarProps {
  filter: MonitorFilter;
  type: MonitorType | 'all';
  status: MonitorStatus | 'all';
  search: string;
  /** The tag filter (`?tag=` in the page's address); empty: none. */
  tag: string;
  counts: MonitorCounts;
  view: MonitorView;
  onFilter: (filter: MonitorFilter) => void;
  onType: (type: MonitorType | 'all') => void;
  onStatus: (status: MonitorStatus | 'all') => void;
  onSearch: (search: string) => void;
  onTag: (tag: string) => void;
  onView: (view: MonitorView) => void;
}

/** The all/active/paused filter with counts, the status and type filters, a name/target search, a tag and the grid/list toggle. */
export function MonitorListToolbar(props: MonitorListToolbarProps) {
  const { filter, type, status, search, tag, counts, view, onFilter, onType, onStatus, onSearch, onTag, onView } = props;
  const { t } = useTranslation();
  const filters: { value: MonitorFilter; count: number }[] = [
    { value: 'all', count: counts.total },
    { value: 'active', count: counts.total - counts.paused },
    { value: 'paused', count: counts.paused },
  ];

  return (
    <Group justify="space-between" gap="sm">
      <Group gap="sm">
        <SegmentedControl
          value={filter}
          onChange={(value) => onFilter(value as MonitorFilter)}
          aria-label={t('monitors.filter.label')}
          data-testid="monitor-filter"
          data={filters.map(({ value, count }) => ({ value, label: `${t(`monitors.filter.${value}`)} (${count})` }))}
        />
        <NativeSelect
          aria-label={t('monitors.statusFilter.label')}
          data-testid="monitor-status-filter"
          value={status}
          onChange={(event) => onStatus(event.currentTarget.value as MonitorStatus | 'all')}
          data={[
            { value: 'all', label: t('monitors.statusFilter.all') },
            // Counts are of active monitors (paused ones have their own filter).
            ...MONITOR_STATUSES.map((value) => ({ value, label: `${t(`monitor.status.${value}`)} (${counts[value]})` })),
          ]}
        />
        <NativeSelect
          aria-label={t('monitors.typeFilter.label')}
          data-testid="monitor-type-filter"
          value={type}
          onChange={(event) => onType(event.currentTarget.value as MonitorType | 'all')}
          data={[
            { value: 'all', label: t('monitors.typeFilter.all') },
            ...MONITOR_TYPES.map((value) => ({ value, label: t(`monitor.type.names.${value}`) })),
          ]}
        />
        <SearchInput search={search} onSearch={onSearch} label={t('monitors.search')} testId="monitor-search" />
        <TagFilter tag={tag} onTag={onTag} label={t('monitors.tagFilter.label')} />
      </Group>
      <SegmentedControl
        value={view}
        onChange={(value) => onView(value as MonitorView)}
        aria-label={t('monitors.view.label')}
        data-testid="view-toggle"
        data={[
          { value: 'list', label: <IconSegmentLabel icon={<IconList size={16} />} text={t('monitors.view.list')} /> },
          { value: 'grid', label: <IconSegmentLabel icon={<IconLayoutGrid size={16} />} text={t('monitors.view.grid')} /> },
        ]}
      />
    </Group>
  );
}
