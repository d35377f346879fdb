import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { SearchedSelect } from '../../../components/SearchedSelect/SearchedSelect';
import { agentsApi } from '../../agents/api';

/** How many agents one search offers: a first page, filtered by the server (there may be a thousand). */
const SEARCH_PAGE = 20;

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

/** A monitor setting naming an agent (a container monitor's host), picked among the agents the server finds. */
export function SettingAgentPicker({ value, onChange, label, description, error, required, testId }: SettingAgentPickerProps) {
  const { t } = useTranslation();
  const find = useCallback(async (search: string, signal: AbortSignal) => {
    const { agents } = await agentsApi.list({ page: 1, pageSize: SEARCH_PAGE, status: 'all', search }, signal);
    return agents.map((agent) => ({ value: String(agent.id), label: agent.name }));
  }, []);
  const read = useCallback(async (id: number, signal: AbortSignal) => {
    const { agent } = await agentsApi.get(id, signal);
    return { value: String(agent.id), label: agent.name };
  }, []);
  const missing = useCallback((id: number) => t('dependencies.missing', { id }), [t]);
  return (
    <SearchedSelect
      find={find}
      read={read}
      missing={missing}
      value={value ? Number(value) : null}
      onChange={(id) => onChange(id === null ? '' : String(id))}
      label={label}
      description={description}
      placeholder={t('monitor.typeSettings.agentPlaceholder')}
      nothingFound={t('dependencies.nothingFound')}
      loadFailed={t('dependencies.searchFailed')}
      error={error}
      required={required}
      testId={testId}
    />
  );
}
