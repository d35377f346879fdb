import { Card, Code, Group, Stack, Tabs, Text } from '@mantine/core';
import { IconHeartbeat } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { CopyValueButton } from '../../../components/CopyValueButton/CopyValueButton';
import { pushExamples, pushUrl } from '../types/push';

interface PushUrlPanelProps {
  token: string;
  /** Seconds: the cron example calls at least this often. */
  interval: number;
  /** Where the API answers; the page's own origin by default. */
  origin?: string;
}

/**
 * A push monitor's URL with curl, cron and PowerShell examples and copy buttons. The token is a secret: this panel
 * sits on signed-in pages only (the public page and the wall never receive it).
 */
export function PushUrlPanel({ token, interval, origin = window.location.origin }: PushUrlPanelProps) {
  const { t } = useTranslation();
  const url = pushUrl(origin, token);
  const examples = pushExamples(url, interval);
  return (
    <Card withBorder radius="md" padding="lg" data-testid="push-url-panel">
      <Stack gap="sm">
        <Group gap="xs">
          <IconHeartbeat size={18} aria-hidden />
          <Text fw={600}>{t('monitor.push.title')}</Text>
        </Group>
        <Text size="sm" c="dimmed">
          {t('monitor.push.description')}
        </Text>
        <Group gap="xs" wrap="nowrap" align="center">
          <Code style={{ flex: 1, minWidth: 0, overflowWrap: 'anywhere' }} data-testid="push-url">
            {url}
          </Code>
          <CopyValueButton value={url} label={t('monitor.push.copyUrl')} testId="push-url-copy" />
        </Group>
        <Tabs defaultValue="curl" keepMounted={false}>
          <Tabs.List>
            {(['curl', 'cron', 'powershell'] as const).map((kind) => (
              <Tabs.Tab key={kind} value={kind} data-testid={`push-tab-${kind}`}>
                {t(`monitor.push.examples.${kind}`)}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {(['curl', 'cron', 'powershell'] as const).map((kind) => (
            <Tabs.Panel key={kind} value={kind} pt="xs">
              <Stack gap="xs">
                <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid={`push-example-${kind}`}>
                  {examples[kind]}
                </Code>
                <Group justify="space-between" gap="xs">
                  <Text size="xs" c="dimmed">
                    {t('monitor.push.statusHint')}
                  </Text>
                  <CopyValueButton value={examples[kind]} label={t(`monitor.push.examples.${kind}`)} testId={`push-example-copy-${kind}`} />
                </Group>
              </Stack>
            </Tabs.Panel>
          ))}
        </Tabs>
      </Stack>
    </Card>
  );
}
