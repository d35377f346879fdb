import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { monitorsApi } from '../api';

/** Groups offered at once; more are found by typing (the server searches, so 10,000 monitors stay fast). */
const OPTIONS = 50;
const SEARCH_DEBOUNCE_MS = 250;

interface ParentGroupFieldProps {
  value: number | null;
  onChange: (parentId: number | null) => void;
  /** The monitor being edited: never offered as its own group. */
  self?: number;
  error?: string;
}

/** "Group": the group monitor a monitor belongs to, picked from the groups the server finds for what is typed. */
export function ParentGroupField({ value, onChange, self, error }: ParentGroupFieldProps) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, SEARCH_DEBOUNCE_MS);
  const [options, setOptions] = useState<Array<{ value: string; label: string }>>([]);
  const [current, setCurrent] = useState<{ value: string; label: string } | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    monitorsApi
      .list({ page: 1, pageSize: OPTIONS, filter: 'all', type: 'group', search: debounced }, controller.signal)
      .then(({ monitors }) => {
        setFailed(false);
        setOptions(monitors.filter((m) => m.id !== self).map((m) => ({ value: String(m.id), label: m.name })));
      })
      .catch(() => !controller.signal.aborted && setFailed(true));
    return () => controller.abort();
  }, [debounced, self]);

  // The saved group keeps its name even when it is not among the first groups found.
  useEffect(() => {
    if (value === null || current?.value === String(value)) return;
    const controller = new AbortController();
    monitorsApi
      .get(value, controller.signal)
      .then(({ monitor }) => setCurrent({ value: String(monitor.id), label: monitor.name }))
      .catch(() => undefined);
    return () => controller.abort();
  }, [value, current]);

  const data = current && !options.some((o) => o.value === current.value) ? [current, ...options] : options;
  return (
    <Select
      name="parentId"
      label={t('monitor.form.parent')}
      description={t('monitor.form.parentDescription')}
      placeholder={t('monitor.form.parentNone')}
      searchable
      clearable
      nothingFoundMessage={failed ? t('monitor.form.parentLoadFailed') : t('monitor.form.parentNone')}
      data={data}
      value={value === null ? null : String(value)}
      onSearchChange={setSearch}
      onChange={(next) => {
        const picked = data.find((o) => o.value === next) ?? null;
        setCurrent(picked);
        onChange(next === null ? null : Number(next));
      }}
      error={error ?? (failed ? t('monitor.form.parentLoadFailed') : undefined)}
      data-testid="monitor-parent"
    />
  );
}
