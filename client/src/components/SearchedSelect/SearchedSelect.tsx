import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useState } from 'react';

/** Items offered at once; more are found by typing (the server searches, so 10,000 monitors or 1,000 agents stay fast). */
export const SEARCHED_OPTIONS = 50;
const SEARCH_DEBOUNCE_MS = 250;

export interface SearchedOption {
  value: string;
  label: string;
}

interface SearchedSelectProps {
  /** The items the server finds for the typed text (at most SEARCHED_OPTIONS). */
  find: (search: string, signal: AbortSignal) => Promise<SearchedOption[]>;
  /** The saved item, read by id so it keeps its name when it is not among the items found. */
  read: (id: number, signal: AbortSignal) => Promise<SearchedOption>;
  value: number | null;
  onChange: (id: number | null) => void;
  name: string;
  label: string;
  description: string;
  /** Shown when nothing is chosen, and when the search finds nothing. */
  none: string;
  loadFailed: string;
  error?: string;
  testId: string;
}

/** One entity picked by id from what the server finds for what is typed (a parent group, a host agent…). */
export function SearchedSelect({
  find,
  read,
  value,
  onChange,
  name,
  label,
  description,
  none,
  loadFailed,
  error,
  testId,
}: SearchedSelectProps) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  const [options, setOptions] = useState<SearchedOption[]>([]);
  const [current, setCurrent] = useState<SearchedOption | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    find(debounced, controller.signal)
      .then((found) => {
        setFailed(false);
        setOptions(found);
      })
      .catch(() => !controller.signal.aborted && setFailed(true));
    return () => controller.abort();
  }, [debounced, find]);

  useEffect(() => {
    if (value === null || current?.value === String(value)) return;
    const controller = new AbortController();
    read(value, controller.signal)
      .then(setCurrent)
      .catch(() => undefined);
    return () => controller.abort();
  }, [value, current, read]);

  const data = current && !options.some((o) => o.value === current.value) ? [current, ...options] : options;
  return (
    <Select
      name={name}
      label={label}
      description={description}
      placeholder={none}
      searchable
      clearable
      nothingFoundMessage={failed ? loadFailed : none}
      data={data}
      value={value === null ? null : String(value)}
      onSearchChange={setSearch}
      onChange={(next) => {
        setCurrent(data.find((o) => o.value === next) ?? null);
        onChange(next === null ? null : Number(next));
      }}
      error={error ?? (failed ? loadFailed : undefined)}
      data-testid={testId}
    />
  );
}
