import { Group, SegmentedControl, Select } from '@mantine/core';
import { ALERT_STATES, type AlertsResponse } from '@vigil/proto';
import { useTranslation } from 'react-i18next';
import { SearchInput } from '../../../components/ListControls/ListControls';
import type { AlertKindFilter, AlertsQuery, AlertStateFilter } from '../api';

interface AlertFiltersProps {
  query: AlertsQuery;
  counts: AlertsResponse['counts'];
  onChange: (patch: Partial<AlertsQuery>) => void;
}

const KINDS: readonly AlertKindFilter[] = ['all', 'monitor', 'agent'];

/** State (with the open and acknowledged counts), kind and search; each change starts again from page 1. */
export function AlertFilters({ query, counts, onChange }: AlertFiltersProps) {
  const { t } = useTranslation();
  const stateLabel = (state: AlertStateFilter) =>
    state === 'open' || state === 'acknowledged' ? `${t(`alerts.states.${state}`)} (${counts[state]})` : t(`alerts.states.${state}`);
  return (
    <Group gap="sm" align="flex-end" wrap="wrap">
      <SegmentedControl
        value={query.state}
        onChange={(value) => onChange({ state: value as AlertStateFilter, page: 1 })}
        data={(['all', ...ALERT_STATES] as const).map((state) => ({ value: state, label: stateLabel(state) }))}
        data-testid="alerts-state"
        style={{ maxWidth: '100%', overflowX: 'auto' }}
      />
      <Select
        aria-label={t('alerts.filters.kind')}
        data={KINDS.map((kind) => ({ value: kind, label: t(`alerts.kinds.${kind}`) }))}
        value={query.kind}
        onChange={(value) => value && onChange({ kind: value as AlertKindFilter, page: 1 })}
        allowDeselect={false}
        w={150}
        data-testid="alerts-kind"
        comboboxProps={{ withinPortal: true }}
      />
      <SearchInput
        search={query.search}
        onSearch={(search) => onChange({ search, page: 1 })}
        label={t('alerts.filters.search')}
        testId="alerts-search"
      />
    </Group>
  );
}
