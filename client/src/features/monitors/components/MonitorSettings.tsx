import { Badge, Card, Code, SimpleGrid, Stack, Text } from '@mantine/core';
import type { MonitorDto } from '@vigil/proto';
import { useTranslation } from 'react-i18next';
import { expectedStatusLabel } from '../format';
import { InfoItem } from '../../../components/InfoItem/InfoItem';

/** The settings tab: what the monitor is configured to do, read-only (spec section 2); changes go through Edit. */
export function MonitorSettings({ monitor }: { monitor: MonitorDto }) {
  const { t } = useTranslation();
  const headers = Object.entries(monitor.headers ?? {});
  const none = (
    <Text size="sm" c="dimmed">
      {t('monitor.settings.none')}
    </Text>
  );
  return (
    <Card withBorder radius="md" padding="lg" data-testid="monitor-settings">
      <Stack gap="lg">
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="lg">
          <InfoItem label={t('monitor.settings.name')}>{monitor.name}</InfoItem>
          <InfoItem label={t('monitor.settings.url')}>{monitor.url}</InfoItem>
          <InfoItem label={t('monitor.settings.method')}>{monitor.method}</InfoItem>
          <InfoItem label={t('monitor.settings.interval')}>{t('monitor.overview.seconds', { value: monitor.interval })}</InfoItem>
          <InfoItem label={t('monitor.settings.timeout')}>{t('monitor.overview.seconds', { value: monitor.timeout })}</InfoItem>
          <InfoItem label={t('monitor.settings.expectedStatus')}>{expectedStatusLabel(monitor.expected_status)}</InfoItem>
          <InfoItem label={t('monitor.settings.state')}>
            <Badge variant="light" color={monitor.active ? 'green' : 'gray'} data-testid="monitor-settings-state">
              {monitor.active ? t('monitor.settings.active') : t('monitor.settings.inactive')}
            </Badge>
          </InfoItem>
          <InfoItem label={t('monitor.settings.retries')}>{monitor.retries}</InfoItem>
          <InfoItem label={t('monitor.settings.retryInterval')}>
            {t('monitor.overview.seconds', { value: monitor.retry_interval })}
          </InfoItem>
        </SimpleGrid>
        <InfoItem label={t('monitor.settings.headers')}>
          {headers.length === 0 ? (
            none
          ) : (
            <Code block data-testid="monitor-settings-headers">
              {headers.map(([name, value]) => `${name}: ${value}`).join('\n')}
            </Code>
          )}
        </InfoItem>
        <InfoItem label={t('monitor.settings.body')}>{monitor.body ? <Code block>{monitor.body}</Code> : none}</InfoItem>
      </Stack>
    </Card>
  );
}
