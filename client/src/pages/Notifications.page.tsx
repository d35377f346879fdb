import { Badge, Button, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconBell, IconDeviceFloppy, IconHistory, IconMessageCircle, IconServer, IconTemplate, IconWorldWww } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useShallow } from 'zustand/react/shallow';
import { errorText, failureWithReason } from '../api/errors';
import { notify } from '../app/notify';
import { ErrorState, LoadingState } from '../components/PageState/PageState';
import { ReadOnlyNotice } from '../components/ReadOnlyNotice/ReadOnlyNotice';
import { selectCanWrite, useAuthStore } from '../features/auth/store';
import { ChannelsPanel } from '../features/notifications/components/ChannelsPanel';
import { GlobalPanel } from '../features/notifications/components/GlobalPanel';
import { HistoryPanel } from '../features/notifications/components/HistoryPanel';
import { TargetsPanel } from '../features/notifications/components/TargetsPanel';
import { TemplatesPanel } from '../features/notifications/components/TemplatesPanel';
import { useNotificationsStore } from '../features/notifications/store';

type Tab = 'global' | 'channels' | 'templates' | 'monitors' | 'agents' | 'history';

export default function NotificationsPage() {
  const { t } = useTranslation();
  const { status, error, channelCount, unsaved, load, save } = useNotificationsStore(
    useShallow((state) => ({
      status: state.status,
      error: state.error,
      channelCount: state.channels.length,
      unsaved: state.dirty.monitors.size + state.dirty.agents.size,
      load: state.load,
      save: state.save,
    })),
  );
  const [tab, setTab] = useState<Tab>('global');
  const [saving, setSaving] = useState(false);
  // A viewer reads every tab; the panels show their values read-only and nothing offers a save.
  const canWrite = useAuthStore(selectCanWrite);

  // Once per visit: saving and channel edits update the store in place, so nothing unsaved is lost to a re-read.
  useEffect(() => {
    void load();
  }, [load]);

  async function submit() {
    setSaving(true);
    try {
      const { outcome, error: reason, invalid } = await save();
      if (outcome === 'saved') notify.success(t('server.notifications.settingsSaved'));
      else if (outcome === 'invalid')
        notify.error(t(invalid === 'followUp' ? 'alerts.settings.invalid' : 'server.notifications.thresholdInvalid'));
      else if (outcome === 'partial') notify.error(failureWithReason(t, t('server.notifications.settingsPartiallyFailed'), reason));
      else notify.error(failureWithReason(t, t('server.notifications.settingsSaveFailed'), reason));
    } finally {
      setSaving(false);
    }
  }

  return (
    <Stack gap="lg" data-testid="notifications-page">
      <Group justify="space-between" align="flex-start">
        <div>
          <Title order={2}>{t('notifications.title')}</Title>
          <Text c="dimmed" mt={4}>
            {t('notifications.subtitle')}
          </Text>
        </div>
        {canWrite && (
          <Group gap="sm">
            {unsaved > 0 && (
              <Badge color="yellow" variant="light" data-testid="notifications-unsaved">
                {t('notifications.unsaved', { count: unsaved })}
              </Badge>
            )}
            <Button
              leftSection={<IconDeviceFloppy size={16} />}
              onClick={() => void submit()}
              loading={saving}
              disabled={status !== 'ready'}
              data-testid="notifications-save"
            >
              {t('common.save')}
            </Button>
          </Group>
        )}
      </Group>

      <ReadOnlyNotice />

      {status === 'error' && <ErrorState message={errorText(t, error, t('server.notifications.loadFailed'))} onRetry={() => void load()} />}
      {(status === 'idle' || status === 'loading') && <LoadingState />}
      {status === 'ready' && (
        <Tabs value={tab} onChange={(next) => setTab((next as Tab) ?? 'global')} keepMounted={false}>
          <Tabs.List mb="md">
            <Tabs.Tab value="global" leftSection={<IconBell size={16} />} data-testid="notifications-tab-global">
              {t('notifications.tabs.global')}
            </Tabs.Tab>
            <Tabs.Tab value="channels" leftSection={<IconMessageCircle size={16} />} data-testid="notifications-tab-channels">
              {t('notifications.tabs.channels')} ({channelCount})
            </Tabs.Tab>
            <Tabs.Tab value="templates" leftSection={<IconTemplate size={16} />} data-testid="notifications-tab-templates">
              {t('notifications.tabs.templates')}
            </Tabs.Tab>
            <Tabs.Tab value="monitors" leftSection={<IconWorldWww size={16} />} data-testid="notifications-tab-monitors">
              {t('notifications.tabs.monitors')}
            </Tabs.Tab>
            <Tabs.Tab value="agents" leftSection={<IconServer size={16} />} data-testid="notifications-tab-agents">
              {t('notifications.tabs.agents')}
            </Tabs.Tab>
            <Tabs.Tab value="history" leftSection={<IconHistory size={16} />} data-testid="notifications-tab-history">
              {t('notifications.tabs.history')}
            </Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="global">
            <GlobalPanel />
          </Tabs.Panel>
          <Tabs.Panel value="channels">
            <ChannelsPanel />
          </Tabs.Panel>
          <Tabs.Panel value="templates">
            <TemplatesPanel />
          </Tabs.Panel>
          <Tabs.Panel value="monitors">
            <TargetsPanel kind="monitors" />
          </Tabs.Panel>
          <Tabs.Panel value="agents">
            <TargetsPanel kind="agents" />
          </Tabs.Panel>
          <Tabs.Panel value="history">
            <HistoryPanel />
          </Tabs.Panel>
        </Tabs>
      )}
    </Stack>
  );
}
