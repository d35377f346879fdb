import { Group, SegmentedControl, TextInput, VisuallyHidden } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconLayoutGrid, IconList, IconSearch } from '@tabler/icons-react';
import { type ReactNode, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AgentStatusFilter } from '../api';
import type { AgentCounts } from '../live';
import type { AgentView } from '../useAgentView';

/** Typing pauses this long before the list is asked for again. */
const SEARCH_DEBOUNCE_MS = 300;

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
  const [typed, setTyped] = useState(search);
  const [debounced] = useDebouncedValue(typed, SEARCH_DEBOUNCE_MS);

  // Only a settled change of the typed text asks again, hence the single dependency.
  useEffect(() => {
    if (debounced !== search) onSearch(debounced);
  }, [debounced]);

  const filters: { value: AgentStatusFilter; count: number }[] = [
    { value: 'all', count: counts.total },
    { value: 'active', count: counts.active },
    { value: 'inactive', count: counts.inactive },
    { value: 'connecting', count: counts.connecting },
  ];

  return (
    <Group justify="space-between" gap="sm">
      <Group gap="sm">
        <SegmentedControl
          value={status}
          onChange={(value) => onStatus(value as AgentStatusFilter)}
          aria-label={t('agents.filter.label')}
          data-testid="agents-filter"
          data={filters.map(({ value, count }) => ({ value, label: `${t(`agents.filter.${value}`)} (${count})` }))}
        />
        <TextInput
          value={typed}
          onChange={(event) => setTyped(event.currentTarget.value)}
          placeholder={t('agents.search')}
          aria-label={t('agents.search')}
          leftSection={<IconSearch size={16} />}
          w={260}
          data-testid="agents-search"
        />
      </Group>
      <SegmentedControl
        value={view}
        onChange={(value) => onView(value as AgentView)}
        aria-label={t('agents.view.label')}
        data-testid="agents-view-toggle"
        data={[
          { value: 'card', label: <ViewLabel icon={<IconLayoutGrid size={16} />} text={t('agents.view.card')} /> },
          { value: 'table', label: <ViewLabel icon={<IconList size={16} />} text={t('agents.view.table')} /> },
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
