import { ActionIcon, Badge, Button, Group, Pagination, Stack, Text } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconTrash } from '@tabler/icons-react';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useComponentNames } from './names';
import { nameKey, pickFromKey, pickKey, type PickedRef } from './refs';

/** Chosen components shown per page: a group of 10,000 renders 25 rows at a time. */
export const LIST_PAGE_SIZE = 25;

interface ComponentListProps {
  refs: readonly PickedRef[];
  onRemove: (index: number) => void;
  /** Moves the component at `from` to `to` (reorderable lists only). */
  onMove?: (from: number, to: number) => void;
  /** Removes every component at once. */
  onClear?: () => void;
  emptyText: string;
  readOnly?: boolean;
  testId: string;
}

/** The components chosen, page by page, named as they come into view; each removable and, where order matters, movable. */
export function ComponentList({ refs, onRemove, onMove, onClear, emptyText, readOnly, testId }: ComponentListProps) {
  const { t } = useTranslation();
  const names = useComponentNames((state) => state.names);
  const resolve = useComponentNames((state) => state.resolve);
  const [page, setPage] = useState(1);
  const pages = Math.max(1, Math.ceil(refs.length / LIST_PAGE_SIZE));
  // A removal that empties the last page shows the page before it.
  const shownPage = Math.min(page, pages);
  const first = (shownPage - 1) * LIST_PAGE_SIZE;
  const visible = useMemo(() => refs.slice(first, first + LIST_PAGE_SIZE), [refs, first]);
  const unnamed = visible
    .filter((ref) => !(nameKey(ref) in names))
    .map(pickKey)
    .join(',');

  useEffect(() => {
    if (unnamed) void resolve(unnamed.split(',').flatMap((key) => pickFromKey(key) ?? []));
  }, [unnamed, resolve]);

  if (refs.length === 0) {
    return (
      <Text size="sm" c="dimmed" data-testid={`${testId}-empty`}>
        {emptyText}
      </Text>
    );
  }

  return (
    <Stack gap={4} data-testid={testId}>
      {visible.map((ref, offset) => {
        const index = first + offset;
        const name = names[nameKey(ref)];
        return (
          <Group key={pickKey(ref)} justify="space-between" wrap="nowrap" gap="xs" data-testid={`${testId}-item-${pickKey(ref)}`}>
            <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
              <Badge size="xs" variant="light" color={ref.type === 'agent' ? 'teal' : ref.type === 'group' ? 'violet' : 'blue'}>
                {t(`componentPicker.kinds.${ref.type}`)}
              </Badge>
              <Text size="sm" truncate="end" c={name === null ? 'red' : name === undefined ? 'dimmed' : undefined}>
                {name === undefined ? `#${ref.id}` : name === null ? t('componentPicker.missing', { id: ref.id }) : name}
              </Text>
            </Group>
            {!readOnly && (
              <Group gap={2} wrap="nowrap">
                {onMove && (
                  <>
                    <ActionIcon
                      variant="subtle"
                      size="sm"
                      disabled={index === 0}
                      onClick={() => onMove(index, index - 1)}
                      aria-label={t('componentPicker.moveUp')}
                      data-testid={`${testId}-up-${pickKey(ref)}`}
                    >
                      <IconArrowUp size={14} />
                    </ActionIcon>
                    <ActionIcon
                      variant="subtle"
                      size="sm"
                      disabled={index === refs.length - 1}
                      onClick={() => onMove(index, index + 1)}
                      aria-label={t('componentPicker.moveDown')}
                      data-testid={`${testId}-down-${pickKey(ref)}`}
                    >
                      <IconArrowDown size={14} />
                    </ActionIcon>
                  </>
                )}
                <ActionIcon
                  variant="subtle"
                  color="red"
                  size="sm"
                  onClick={() => onRemove(index)}
                  aria-label={t('componentPicker.remove')}
                  data-testid={`${testId}-remove-${pickKey(ref)}`}
                >
                  <IconTrash size={14} />
                </ActionIcon>
              </Group>
            )}
          </Group>
        );
      })}
      <Group justify="space-between" gap="xs" wrap="wrap" mt={4}>
        <Text size="xs" c="dimmed" data-testid={`${testId}-count`}>
          {t('componentPicker.chosen', { count: refs.length })}
        </Text>
        <Group gap="xs">
          {pages > 1 && <Pagination size="sm" total={pages} value={shownPage} onChange={setPage} data-testid={`${testId}-pages`} />}
          {onClear && !readOnly && (
            <Button size="compact-xs" variant="subtle" color="red" onClick={onClear} data-testid={`${testId}-clear`}>
              {t('componentPicker.removeAll')}
            </Button>
          )}
        </Group>
      </Group>
    </Stack>
  );
}
