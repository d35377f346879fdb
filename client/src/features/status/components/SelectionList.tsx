import { Button, Checkbox, Group, Pagination, Paper, Stack, Text, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { memo, type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SelectableItem } from '../configStore';

/** Rows per page: enough to scan, few enough that a list of 10,000 renders at once. */
export const SELECTION_PAGE_SIZE = 50;

interface SelectionListProps {
  items: readonly SelectableItem[];
  selected: ReadonlySet<number>;
  onToggle: (id: number, on: boolean) => void;
  onSetMany: (ids: readonly number[], on: boolean) => void;
  /** Shown when there is nothing to choose from. */
  emptyText: string;
  testId: string;
  /** Something beside a row, e.g. the badge of a selected monitor. */
  extra?: (item: SelectableItem, selected: boolean) => ReactNode;
  /** A viewer's list: the boxes show the choice but are disabled, and neither select-all nor none is offered. */
  readOnly?: boolean;
}

interface RowProps {
  item: SelectableItem;
  checked: boolean;
  onToggle: (id: number, on: boolean) => void;
  testId: string;
  extra?: ReactNode;
  readOnly: boolean;
}

/** One checkbox; memoised so ticking one row re-renders that row only. */
const SelectionRow = memo(function SelectionRow({ item, checked, onToggle, testId, extra, readOnly }: RowProps) {
  return (
    <Group justify="space-between" wrap="nowrap" gap="xs" py={4} px="xs" mih={36}>
      <Checkbox
        label={item.name}
        checked={checked}
        disabled={readOnly}
        onChange={(event) => onToggle(item.id, event.currentTarget.checked)}
        data-testid={`${testId}-item-${item.id}`}
        styles={{ body: { minWidth: 0 }, label: { overflowWrap: 'anywhere' } }}
      />
      {extra}
    </Group>
  );
});

/**
 * Checkboxes for the monitors or agents a status page may show. Searched and paged on the client: the whole list
 * arrives once with the configuration, and a page of 50 rows stays fast with 10,000 items.
 */
export function SelectionList({ items, selected, onToggle, onSetMany, emptyText, testId, extra, readOnly = false }: SelectionListProps) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);

  const matching = useMemo(() => {
    const needle = search.trim().toLowerCase();
    return needle ? items.filter((item) => item.name.toLowerCase().includes(needle)) : items;
  }, [items, search]);
  const pages = Math.max(1, Math.ceil(matching.length / SELECTION_PAGE_SIZE));
  const current = Math.min(page, pages);
  const shown = matching.slice((current - 1) * SELECTION_PAGE_SIZE, current * SELECTION_PAGE_SIZE);
  const matchingIds = () => matching.map((item) => item.id);

  if (items.length === 0) {
    return (
      <Text c="dimmed" py="md" data-testid={`${testId}-empty`}>
        {emptyText}
      </Text>
    );
  }

  return (
    <Stack gap="sm" data-testid={testId}>
      <Group justify="space-between" gap="sm">
        <TextInput
          placeholder={t('statusConfig.items.search')}
          aria-label={t('statusConfig.items.search')}
          leftSection={<IconSearch size={16} />}
          value={search}
          onChange={(event) => {
            setSearch(event.currentTarget.value);
            setPage(1);
          }}
          style={{ flex: '1 1 240px' }}
          data-testid={`${testId}-search`}
        />
        {!readOnly && (
          <Group gap="xs">
            <Button
              variant="default"
              size="xs"
              onClick={() => onSetMany(matchingIds(), true)}
              disabled={matching.length === 0}
              data-testid={`${testId}-all`}
            >
              {search.trim() ? t('statusConfig.items.selectMatching', { count: matching.length }) : t('statusConfig.items.selectAll')}
            </Button>
            <Button
              variant="default"
              size="xs"
              onClick={() => onSetMany(matchingIds(), false)}
              disabled={matching.length === 0}
              data-testid={`${testId}-none`}
            >
              {search.trim() ? t('statusConfig.items.clearMatching', { count: matching.length }) : t('statusConfig.items.selectNone')}
            </Button>
          </Group>
        )}
      </Group>
      <Text size="sm" c="dimmed" data-testid={`${testId}-count`}>
        {t('statusConfig.items.selected', { selected: selected.size, total: items.length })}
      </Text>
      <Paper withBorder radius="md" p={4}>
        {shown.length === 0 ? (
          <Text c="dimmed" p="sm">
            {t('statusConfig.items.noMatch')}
          </Text>
        ) : (
          shown.map((item) => {
            const checked = selected.has(item.id);
            return (
              <SelectionRow
                key={item.id}
                item={item}
                checked={checked}
                onToggle={onToggle}
                testId={testId}
                extra={extra?.(item, checked)}
                readOnly={readOnly}
              />
            );
          })
        )}
      </Paper>
      {pages > 1 && <Pagination total={pages} value={current} onChange={setPage} size="sm" data-testid={`${testId}-pages`} />}
    </Stack>
  );
}
