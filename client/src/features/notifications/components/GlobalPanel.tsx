import { Paper, SimpleGrid, Stack, Switch, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useShallow } from 'zustand/react/shallow';
import { selectCanWrite, useAuthStore } from '../../auth/store';
import { useNotificationsStore } from '../store';
import { AgentOptions } from './AgentOptions';
import { MonitorOptions } from './MonitorOptions';

/** Settings every monitor and agent follows unless it overrides them; details show only while enabled. */
export function GlobalPanel() {
  const { t } = useTranslation();
  const { channels, monitors, agents, setGlobalMonitors, setGlobalAgents } = useNotificationsStore(
    useShallow((state) => ({
      channels: state.channels,
      monitors: state.monitors,
      agents: state.agents,
      setGlobalMonitors: state.setGlobalMonitors,
      setGlobalAgents: state.setGlobalAgents,
    })),
  );
  // A viewer sees the settings but cannot change them.
  const canWrite = useAuthStore(selectCanWrite);

  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
      <Paper withBorder radius="md" p="lg" data-testid="global-monitors">
        <Stack gap="md">
          <div>
            <Title order={4}>{t('notifications.global.monitorsTitle')}</Title>
            <Text size="sm" c="dimmed">
              {t('notifications.global.monitorsHint')}
            </Text>
          </div>
          <Switch
            label={t('notifications.settings.enabled')}
            disabled={!canWrite}
            checked={monitors.enabled}
            onChange={(event) => setGlobalMonitors({ enabled: event.currentTarget.checked })}
            data-testid="global-monitors-enabled"
          />
          {monitors.enabled && (
            <MonitorOptions value={monitors} channels={channels} onChange={setGlobalMonitors} testId="global-monitors" />
          )}
        </Stack>
      </Paper>
      <Paper withBorder radius="md" p="lg" data-testid="global-agents">
        <Stack gap="md">
          <div>
            <Title order={4}>{t('notifications.global.agentsTitle')}</Title>
            <Text size="sm" c="dimmed">
              {t('notifications.global.agentsHint')}
            </Text>
          </div>
          <Switch
            label={t('notifications.settings.enabled')}
            disabled={!canWrite}
            checked={agents.enabled}
            onChange={(event) => setGlobalAgents({ enabled: event.currentTarget.checked })}
            data-testid="global-agents-enabled"
          />
          {agents.enabled && <AgentOptions value={agents} channels={channels} onChange={setGlobalAgents} testId="global-agents" />}
        </Stack>
      </Paper>
    </SimpleGrid>
  );
}
