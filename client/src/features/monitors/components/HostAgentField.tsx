import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { SEARCHED_OPTIONS, SearchedSelect } from '../../../components/SearchedSelect/SearchedSelect';
import { agentsApi } from '../../agents/api';

/**
 * "Runs on": the agent of the host the monitored service runs on, so its down alert and detail page tell that host's
 * state. Picked from the agents the server finds for what is typed.
 */
export function HostAgentField({ value, onChange }: { value: number | null; onChange: (agentId: number | null) => void }) {
  const { t } = useTranslation();
  const find = useCallback(async (search: string, signal: AbortSignal) => {
    const { agents } = await agentsApi.list({ page: 1, pageSize: SEARCHED_OPTIONS, status: 'all', search }, signal);
    return agents.map((agent) => ({ value: String(agent.id), label: agent.name }));
  }, []);
  const read = useCallback(async (id: number, signal: AbortSignal) => {
    const { agent } = await agentsApi.get(id, signal);
    return { value: String(agent.id), label: agent.name };
  }, []);
  return (
    <SearchedSelect
      find={find}
      read={read}
      value={value}
      onChange={onChange}
      name="hostAgentId"
      label={t('monitor.form.hostAgent')}
      description={t('monitor.form.hostAgentDescription')}
      placeholder={t('monitor.form.hostAgentNone')}
      nothingFound={t('monitor.form.hostAgentNone')}
      loadFailed={t('monitor.form.hostAgentLoadFailed')}
      testId="monitor-host-agent"
    />
  );
}
