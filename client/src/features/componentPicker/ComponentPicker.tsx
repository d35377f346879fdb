import { Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../app/notify';
import { ComponentList } from './ComponentList';
import { ComponentSearch } from './ComponentSearch';
import { pickKey, type PickKind, type PickOption, type PickedRef } from './refs';

interface ComponentPickerProps {
  value: readonly PickedRef[];
  onChange: (refs: PickedRef[]) => void;
  kinds: readonly PickKind[];
  /** The most the request may carry. */
  max: number;
  emptyText: string;
  readOnly?: boolean;
  testId: string;
}

/** Adds `options` not chosen yet to `value`, up to `max`; says how many did not fit. */
export function addPicked(
  value: readonly PickedRef[],
  options: readonly PickOption[],
  max: number,
): { refs: PickedRef[]; dropped: number } {
  const chosen = new Set(value.map(pickKey));
  const fresh: PickedRef[] = [];
  for (const option of options) {
    const key = pickKey(option.ref);
    if (chosen.has(key)) continue;
    chosen.add(key);
    fresh.push(option.ref);
  }
  const room = Math.max(0, max - value.length);
  return { refs: [...value, ...fresh.slice(0, room)], dropped: Math.max(0, fresh.length - room) };
}

/** A set of monitors, agents or groups: search on one side, the chosen ones on the other (stacked on a phone). */
export function ComponentPicker({ value, onChange, kinds, max, emptyText, readOnly, testId }: ComponentPickerProps) {
  const { t } = useTranslation();
  const chosen = useMemo(() => new Set(value.map(pickKey)), [value]);

  function add(options: PickOption[]) {
    const { refs, dropped } = addPicked(value, options, max);
    if (dropped > 0) notify.error(t('componentPicker.tooMany', { max }));
    onChange(refs);
  }

  return (
    <SimpleGrid cols={{ base: 1, md: readOnly ? 1 : 2 }} spacing="md">
      {!readOnly && (
        <Paper withBorder p="sm" radius="md">
          <ComponentSearch kinds={kinds} isChosen={(ref) => chosen.has(pickKey(ref))} onAdd={add} testId={`${testId}-search`} />
        </Paper>
      )}
      <Paper withBorder p="sm" radius="md">
        <Stack gap="xs">
          <Text size="sm" fw={500}>
            {t('componentPicker.chosenTitle')}
          </Text>
          <ComponentList
            refs={value}
            onRemove={(index) => onChange(value.filter((_, at) => at !== index))}
            onClear={() => onChange([])}
            emptyText={emptyText}
            readOnly={readOnly}
            testId={`${testId}-chosen`}
          />
        </Stack>
      </Paper>
    </SimpleGrid>
  );
}
