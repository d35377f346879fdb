import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/http';
import { agentsApi } from '../../agents/api';

/** How many agents one search offers: a first page, filtered by the server (there may be a thousand). */
const SEARCH_PAGE = 20;
const SEARCH_DEBOUNCE_MS = 250;

interface SettingAgentPickerProps {
  /** The agent's id as the form holds it (text; '' when none). */
  value: string;
  onChange: (value: string) => void;
  label: string;
  description?: string;
  error?: string;
  required?: boolean;
  testId: string;
}

type Option = { value: string; label: string };

/**
 * A monitor setting naming an agent (a container monitor's host): a searchable pick among the agents, read a page at a
 * time through the list API; the saved one is named by reading it (a deleted one says so).
 */
export function SettingAgentPicker({ value, onChange, label, description, error, required, testId }: SettingAgentPickerProps) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  const [open, setOpen] = useState(false);
  const [found, setFound] = useState<Option[] | null>([]);
  const [chosen, setChosen] = useState<Option | null>(null);

  // The saved agent's name, read once per id (the list may not hold it on its first page).
  useEffect(() => {
    if (!value || chosen?.value === value) return;
    const controller = new AbortController();
    agentsApi
      .get(Number(value), controller.signal)
      .then(({ agent }) => setChosen({ value, label: agent.name }))
      .catch((failure) => {
        if (failure instanceof ApiError && failure.status === 404) setChosen({ value, label: t('dependencies.missing', { id: value }) });
      });
    return () => controller.abort();
  }, [value, chosen, t]);

  useEffect(() => {
    if (!open) return;
    const controller = new AbortController();
    agentsApi
      .list({ page: 1, pageSize: SEARCH_PAGE, status: 'all', search: debounced }, controller.signal)
      .then(({ agents }) => setFound(agents.map((agent) => ({ value: String(agent.id), label: agent.name }))))
      .catch(() => {
        if (!controller.signal.aborted) setFound(null);
      });
    return () => controller.abort();
  }, [debounced, open]);

  const data = useMemo(() => {
    const current = chosen?.value === value ? chosen : value ? { value, label: `#${value}` } : null;
    const offered = (found ?? []).filter((option) => option.value !== current?.value);
    return current ? [current, ...offered] : offered;
  }, [chosen, found, value]);

  return (
    <Select
      label={label}
      description={description}
      error={error}
      required={required}
      placeholder={t('monitor.typeSettings.agentPlaceholder')}
      data={data}
      value={value || null}
      onChange={(next, option) => {
        if (next && option) setChosen({ value: next, label: option.label });
        onChange(next ?? '');
      }}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      // The server already filtered by name and host; its matches must not be dropped here by their labels.
      filter={({ options }) => options}
      onDropdownOpen={() => setOpen(true)}
      nothingFoundMessage={found === null ? t('dependencies.searchFailed') : t('dependencies.nothingFound')}
      data-testid={testId}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
