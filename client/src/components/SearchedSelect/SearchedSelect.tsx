import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { ApiError } from '../../api/http';

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
  name?: string;
  label: string;
  description?: string;
  /** Shown when nothing is chosen. */
  placeholder: string;
  /** Shown when the search finds nothing. */
  nothingFound: string;
  loadFailed: string;
  /** The saved item's label when reading it answers 404 (deleted meanwhile). */
  missing?: (id: number) => string;
  error?: string;
  required?: boolean;
  testId: string;
}

/**
 * One entity picked by id (a parent group, a host agent, a container's agent) among what the server finds for what is
 * typed; nothing is listed before the dropdown first opens, so a form with several pickers reads nothing it is not
 * asked for.
 */
export function SearchedSelect(props: SearchedSelectProps) {
  const { find, read, value, onChange, missing, error, testId } = props;
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  const [opened, setOpened] = useState(false);
  const [options, setOptions] = useState<SearchedOption[]>([]);
  const [current, setCurrent] = useState<SearchedOption | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    if (!opened) return;
    const controller = new AbortController();
    find(debounced, controller.signal)
      .then((found) => {
        setFailed(false);
        setOptions(found);
      })
      .catch(() => !controller.signal.aborted && setFailed(true));
    return () => controller.abort();
  }, [debounced, find, opened]);

  useEffect(() => {
    if (value === null || current?.value === String(value)) return;
    const controller = new AbortController();
    read(value, controller.signal)
      .then(setCurrent)
      .catch((failure) => {
        if (missing && failure instanceof ApiError && failure.status === 404) setCurrent({ value: String(value), label: missing(value) });
      });
    return () => controller.abort();
  }, [value, current, read, missing]);

  const data = current && !options.some((o) => o.value === current.value) ? [current, ...options] : options;
  return (
    <Select
      name={props.name}
      label={props.label}
      description={props.description}
      placeholder={props.placeholder}
      required={props.required}
      searchable
      clearable={!props.required}
      nothingFoundMessage={failed ? props.loadFailed : props.nothingFound}
      data={data}
      value={value === null ? null : String(value)}
      onSearchChange={setSearch}
      // The server already filtered by name (and target): its matches must not be dropped here by their labels.
      filter={({ options: offered }) => offered}
      onDropdownOpen={() => setOpened(true)}
      onChange={(next) => {
        setCurrent(data.find((o) => o.value === next) ?? null);
        onChange(next === null ? null : Number(next));
      }}
      error={error ?? (failed ? props.loadFailed : undefined)}
      data-testid={testId}
    />
  );
}
