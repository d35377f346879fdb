import { Alert, Badge, Button, Group, List, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { IconBell, IconBellOff, IconInfoCircle } from '@tabler/icons-react';
import type { WebPushSubscriptionDto } from '@vigil/proto';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../../api/errors';
import { useRead } from '../../../api/useRead';
import { notify } from '../../../app/notify';
import { disablePush, enablePush, pushSupported, thisBrowser, webPushApi } from '../webPush';

/** Whether this browser receives the signed-in user's alerts, and the user's browsers; null where push is unsupported. */
interface BrowserState {
  permission: NotificationPermission;
  current: WebPushSubscriptionDto | null;
  browsers: WebPushSubscriptionDto[];
}

async function readState(signal: AbortSignal): Promise<BrowserState | null> {
  if (!pushSupported()) return null;
  const { data } = await webPushApi.list(signal);
  return { permission: Notification.permission, current: await thisBrowser(data), browsers: data };
}

/** The profile's "Browser notifications" section: enable or disable Web Push in this browser, and the user's other browsers. */
export function BrowserNotifications() {
  const { t, i18n } = useTranslation();
  const read = useRead(readState);
  const [busy, setBusy] = useState(false);
  const state = read.value;

  async function run(action: () => Promise<void>, failure: string) {
    setBusy(true);
    try {
      await action();
    } catch (error) {
      notify.error(errorText(t, error, failure));
    } finally {
      setBusy(false);
      read.retry();
    }
  }

  const enable = () =>
    run(async () => {
      if ((await enablePush()) === 'enabled') notify.success(t('server.webPush.subscribed'));
    }, t('profile.webPush.enableFailed'));
  const disable = () =>
    run(async () => {
      await disablePush();
      notify.success(t('server.webPush.unsubscribed'));
    }, t('profile.webPush.disableFailed'));

  return (
    <Paper withBorder radius="md" p="lg" data-testid="web-push-section">
      <Stack gap="md">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Title order={4}>{t('profile.webPush.title')}</Title>
          {state && (
            <Badge variant="light" color={state.current ? 'green' : 'gray'} data-testid="web-push-state">
              {state.current ? t('profile.webPush.enabled') : t('profile.webPush.notEnabled')}
            </Badge>
          )}
        </Group>
        <Text size="sm" c="dimmed">
          {t('profile.webPush.description')}
        </Text>
        {state === null && (
          <Alert color="gray" variant="light" icon={<IconInfoCircle size={18} />} data-testid="web-push-unsupported">
            {t('profile.webPush.unsupported')}
          </Alert>
        )}
        {read.status === 'loading' && state === undefined && <Loader size="sm" aria-label={t('auth.loading')} />}
        {state && state.permission === 'denied' && !state.current && (
          <Alert color="orange" variant="light" icon={<IconBellOff size={18} />} data-testid="web-push-denied">
            {t('profile.webPush.denied')}
          </Alert>
        )}
        {read.status === 'error' && (
          <Alert color="red" variant="light" data-testid="web-push-error">
            {errorText(t, read.error, t('common.error.fetch'))}
          </Alert>
        )}
        {state && (
          <Group>
            {state.current ? (
              <Button
                variant="default"
                leftSection={<IconBellOff size={16} />}
                loading={busy}
                onClick={disable}
                data-testid="web-push-disable"
              >
                {t('profile.webPush.disable')}
              </Button>
            ) : (
              <Button
                leftSection={<IconBell size={16} />}
                loading={busy}
                disabled={state.permission === 'denied'}
                onClick={enable}
                data-testid="web-push-enable"
              >
                {t('profile.webPush.enable')}
              </Button>
            )}
          </Group>
        )}
        {state && state.browsers.length > 0 && (
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              {t('profile.webPush.browsers')}
            </Text>
            <List size="sm" spacing={2} data-testid="web-push-browsers">
              {state.browsers.map((browser) => (
                <List.Item key={browser.id} style={{ overflowWrap: 'anywhere' }}>
                  {browser.user_agent ?? t('profile.webPush.unknownBrowser')} · {new URL(browser.origin).host} ·{' '}
                  {t('profile.webPush.since', { date: new Date(browser.created_at).toLocaleDateString(i18n.language) })}
                  {browser.id === state.current?.id && (
                    <Badge ml="xs" size="xs" variant="light" color="green">
                      {t('profile.webPush.thisBrowser')}
                    </Badge>
                  )}
                </List.Item>
              ))}
            </List>
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
