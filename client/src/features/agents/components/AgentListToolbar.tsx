import { Box, Group, SegmentedControl } from '@mantine/core';
import { IconLayoutGrid, IconList } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { IconSegmentLabel, SearchInput } from '../../../components/ListControls/ListControls';
import type { AgentStatusFilter } from '../api';
import type { AgentCounts } from '../live';
import type { AgentView } from '../useAgentView';

interface AgentListToolbarProps {
  status: AgentStatusFilter;
  search: string;
  counts: AgentCounts;
  view: AgentView;
  onStatus: (status: AgentStatusFilter) => void;
  onSearch: (search: string) => void;
  onView: (view: AgentView) => void;
}

/** The status filter, which doubles as the summary counts, a name/host/IP search and the card/table toggle. */
export function AgentListToolbar({ status, search, counts, view, onStatus, onSearch, onView }: AgentListToolbarProps) {
  const { t } = useTranslation();
  const filters: { value: AgentStatusFilter; count: number }[] = [
    { value: 'all', count: counts.total },
    { value: 'active', count: counts.active },
    { value: 'inactive', count: counts.inactive },
    { value: 'connecting', count: counts.connecting },
    { value: 'unreachable', count: counts.unreachable },
    { value: 'maintenance', count: counts.maintenance },
  ];

  return (
    <Group justify="space-between" gap="sm">
      <Group gap="sm">
        {/* Five counts are wider than a phone: the control scrolls sideways instead of the page. */}
        <Box maw="100%" style={{ overflowX: 'auto' }}>
          <SegmentedControl
            value={status}
            onChange={(value) => onStatus(value as AgentStatusFilter)}
            aria-label={t('agents.filter.label')}
            data-testid="agents-filter"
            data={filters.map(({ value, count }) => ({ value, label: `${t(`agents.filter.${value}`)} (${count})` }))}
          />
        </Box>
        <SearchInput search={search} onSearch={onSearch} label={t('agents.search')} testId="agents-search" />
      </Group>
      <SegmentedControl
        value={view}
        onChange={(value) => onView(value as AgentView)}
        aria-label={t('agents.view.label')}
        data-testid="agents-view-toggle"
        data={[
          { value: 'card', label: <IconSegmentLabel icon={<IconLayoutGrid size={16} />} text={t('agents.view.card')} /> },
          { value: 'table', label: <IconSegmentLabel icon={<IconList size={16} />} text={t('agents.view.table')} /> },
        ]}
      />
    </Group>
  );
}
