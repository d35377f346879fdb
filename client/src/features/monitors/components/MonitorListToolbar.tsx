import { Group, SegmentedControl, TextInput, VisuallyHidden } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconLayoutGrid, IconList, IconSearch } from '@tabler/icons-react';
import type { MonitorFilter } from '@vigil/proto';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MonitorCounts } from '../live';
import type { MonitorView } from '../useMonitorView';

/** Typing pauses this long before the list is asked for again. */
const SEARCH_DEBOUNCE_MS = 300;

interface MonitorListToolbarProps {
  filter: MonitorFilter;
  search: string;
  counts: MonitorCounts;
  view: MonitorView;
  onFilter: (filter: MonitorFilter) => void;
  onSearch: (search: string) => void;
  onView: (view: MonitorView) => void;
}

/** The all/active/paused filter with counts, a name/url search and the grid/list toggle. */
export function MonitorListToolbar({ filter, search, counts, view, onFilter, onSearch, onView }: MonitorListToolbarProps) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState(search);
  const [debounced] = useDebouncedValue(typed, SEARCH_DEBOUNCE_MS);

  // Only a settled change of the typed text asks again, hence the single dependency.
  useEffect(() => {
    if (debounced !== search) onSearch(debounced);
  }, [debounced]);

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
        <TextInput
          value={typed}
          onChange={(event) => setTyped(event.currentTarget.value)}
          placeholder={t('monitors.search')}
          aria-label={t('monitors.search')}
          leftSection={<IconSearch size={16} />}
          w={260}
          data-testid="monitor-search"
        />
      </Group>
      <SegmentedControl
        value={view}
        onChange={(value) => onView(value as MonitorView)}
        aria-label={t('monitors.view.label')}
        data-testid="view-toggle"
        data={[
          { value: 'list', label: <ViewLabel icon={<IconList size={16} />} text={t('monitors.view.list')} /> },
          { value: 'grid', label: <ViewLabel icon={<IconLayoutGrid size={16} />} text={t('monitors.view.grid')} /> },
        ]}
      />
    </Group>
  );
}

function ViewLabel({ icon, text }: { icon: ReactNode; text: string }) {
  return (
    <Group gap={0} wrap="nowrap" title={text}>
      {icon}
      <VisuallyHidden>{text}</VisuallyHidden>
    </Group>
  );
}
