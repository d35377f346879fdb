import { type ComboboxItem, type ComboboxItemGroup, MultiSelect } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { DEPENDENCIES_MAX, type DependencyRef } from '@vigil/proto';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DEPENDENCY_KINDS, type DependencyKind, type DependencyOption, dependencyNames, searchDependencies } from './api';
import { refFromKey, refKey, sameRef } from './refs';

interface DependencyPickerProps {
  value: readonly DependencyRef[];
  onChange: (refs: DependencyRef[]) => void;
  /** The monitor or agent being edited: never offered, it cannot depend on itself. */
  self?: DependencyRef;
  description?: string;
  error?: string;
  disabled?: boolean;
  /** The kinds offered (both by default; the locations field offers agents only). A constant: a new list reads again. */
  kinds?: readonly DependencyKind[];
  label?: string;
  placeholder?: string;
  nothingFound?: string;
  maxValues?: number;
  testId?: string;
}

/** How long typing pauses before the search is sent. */
export const SEARCH_DEBOUNCE_MS = 250;

/** The last answered search: its text and options, or null options when it failed. */
type Answer = { query: string; options: DependencyOption[] | null };

/**
 * "Depends on": a searchable pick of monitors and agents (agents only for the agents a monitor is checked from).
 * Options come from the paged list reads (a first page per kind, filtered by the server), so it stays fast with 10,000
 * monitors or 1,000 agents; saved choices are named by reading each.
 */
export function DependencyPicker({
  value,
  onChange,
  self,
  description,
  error,
  disabled,
  kinds = DEPENDENCY_KINDS,
  label,
  placeholder,
  nothingFound,
  maxValues = DEPENDENCIES_MAX,
  testId = 'depends-on',
}: DependencyPickerProps) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  const [answer, setAnswer] = useState<Answer | null>(null);
  // Names of everything seen, so a chosen option keeps its label when the search moves on.
  const [names, setNames] = useState<ReadonlyMap<string, string | null>>(new Map());
  const [open, setOpen] = useState(false);

  const unnamed = value.filter((ref) => !names.has(refKey(ref)));
  const unnamedKey = unnamed.map(refKey).join(',');
  useEffect(() => {
    if (!unnamedKey) return;
    const controller = new AbortController();
    const refs = unnamedKey.split(',').map((key) => refFromKey(key)!);
    dependencyNames(refs, controller.signal)
      .then((read) => setNames((known) => new Map([...known, ...read])))
      .catch(() => undefined);
    return () => controller.abort();
  }, [unnamedKey]);

  useEffect(() => {
    if (!open) return;
    const controller = new AbortController();
    const query = debounced.trim();
    searchDependencies(query, controller.signal, kinds)
      .then((options) => {
        setNames((known) => new Map([...known, ...options.map((option) => [refKey(option.ref), option.name] as const)]));
        setAnswer({ query, options });
      })
      .catch(() => {
        if (!controller.signal.aborted) setAnswer({ query, options: null });
      });
    return () => controller.abort();
  }, [debounced, open, kinds]);
  const searching = open && answer?.query !== debounced.trim();

  const data = useMemo(() => {
    const label = (ref: DependencyRef) => {
      const name = names.get(refKey(ref));
      // Undefined: not read yet (shown by id for a moment); null: the read found nothing.
      return name === undefined ? `#${ref.id}` : (name ?? t('dependencies.missing', { id: ref.id }));
    };
    const offered = answer?.options?.map((option) => option.ref) ?? [];
    // Chosen refs are always in the data, so their pills have a label; picked ones are hidden from the list.
    const refs = [...value, ...offered.filter((ref) => !value.some((chosen) => sameRef(chosen, ref)))];
    const groups: ComboboxItemGroup<ComboboxItem, string>[] = kinds.map((type) => ({
      group: t(`dependencies.kind.${type}`),
      items: refs
        .filter((ref) => ref.type === type && !(self && sameRef(ref, self)))
        .map((ref) => ({ value: refKey(ref), label: label(ref) })),
    }));
    return groups.filter((group) => group.items.length > 0);
  }, [answer, kinds, names, self, t, value]);

  const nothing = searching
    ? t('dependencies.searching')
    : answer?.options === null
      ? t('dependencies.searchFailed')
      : (nothingFound ?? t('dependencies.nothingFound'));

  return (
    <MultiSelect
      label={label ?? t('dependencies.label')}
      description={description ?? t('dependencies.description')}
      placeholder={value.length === 0 ? (placeholder ?? t('dependencies.placeholder')) : undefined}
      data={data}
      value={value.map(refKey)}
      onChange={(keys) => onChange(keys.map(refFromKey).filter((ref): ref is DependencyRef => ref !== null))}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      // The server already filtered by name and target; a target match must not be dropped here by its label.
      filter={({ options }) => options}
      onDropdownOpen={() => setOpen(true)}
      hidePickedOptions
      maxValues={maxValues}
      clearable
      nothingFoundMessage={nothing}
      error={error}
      disabled={disabled}
      data-testid={testId}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
