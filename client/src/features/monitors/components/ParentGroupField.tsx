import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { SEARCHED_OPTIONS, SearchedSelect } from '../../../components/SearchedSelect/SearchedSelect';
import { monitorsApi } from '../api';

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
  const find = useCallback(
    async (search: string, signal: AbortSignal) => {
      const { monitors } = await monitorsApi.list({ page: 1, pageSize: SEARCHED_OPTIONS, filter: 'all', type: 'group', search }, signal);
      return monitors.filter((m) => m.id !== self).map((m) => ({ value: String(m.id), label: m.name }));
    },
    [self],
  );
  const read = useCallback(async (id: number, signal: AbortSignal) => {
    const { monitor } = await monitorsApi.get(id, signal);
    return { value: String(monitor.id), label: monitor.name };
  }, []);
  return (
    <SearchedSelect
      find={find}
      read={read}
      value={value}
      onChange={onChange}
      name="parentId"
      label={t('monitor.form.parent')}
      description={t('monitor.form.parentDescription')}
      placeholder={t('monitor.form.parentNone')}
      nothingFound={t('monitor.form.parentNone')}
      loadFailed={t('monitor.form.parentLoadFailed')}
      error={error}
      testId="monitor-parent"
    />
  );
}
