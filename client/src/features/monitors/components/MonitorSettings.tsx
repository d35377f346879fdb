import { Badge, Card, Code, List, SimpleGrid, Stack, Text } from '@mantine/core';
import { isAddedType, type MonitorDto } from '@vigil/proto';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { expectedStatusLabel } from '../format';
import { InfoItem } from '../../../components/InfoItem/InfoItem';
import { DATABASE_TYPES, HOST_TYPES, PORT_TYPES, usesTls } from '../types/fields';
import { describeAssertion } from './TestResultView';
import { MonitorTypeBadge } from './MonitorTypeBadge';
import { MonitorTarget } from './MonitorTarget';
import { specSettingRows } from './SpecTypeFields';

/** The settings only some types have, as label/value pairs; null values are left out. */
function typeSettings(t: TFunction, exists: (key: string) => boolean, monitor: MonitorDto): [string, ReactNode][] {
  const { type } = monitor;
  // An added type lists its spec's fields (secrets as the read's mask), after its host, port or URL columns.
  if (isAddedType(type)) {
    const columns: [string, ReactNode | null][] = [
      [t('monitor.settings.hostname'), HOST_TYPES.includes(type) ? monitor.hostname : null],
      [t('monitor.settings.port'), PORT_TYPES.includes(type) ? monitor.port : null],
    ];
    return [
      ...columns.filter((row): row is [string, ReactNode] => row[1] !== null && row[1] !== undefined),
      ...specSettingRows(t, exists, monitor),
    ];
  }
  const certificate = usesTls(type, { tls: monitor.tls ?? false, url: monitor.url });
  const rows: [string, ReactNode | null][] = [
    [t('monitor.settings.hostname'), HOST_TYPES.includes(type) ? monitor.hostname : null],
    [t('monitor.settings.port'), PORT_TYPES.includes(type) ? monitor.port : null],
    [t('monitor.settings.packetCount'), type === 'ping' ? monitor.packet_count : null],
    [t('monitor.settings.dnsRecordType'), type === 'dns' ? monitor.dns_record_type : null],
    [t('monitor.settings.dnsServer'), type === 'dns' ? (monitor.dns_server ?? t('monitor.settings.systemResolver')) : null],
    [t('monitor.settings.grpcService'), type === 'grpc' ? monitor.grpc_service || '-' : null],
    [t('monitor.settings.tls'), type === 'grpc' ? (monitor.tls ? t('monitor.settings.yes') : t('monitor.settings.no')) : null],
    // Masked by the server; shown so one can tell a string is saved.
    [t('monitor.settings.connectionString'), DATABASE_TYPES.includes(type) ? monitor.connection_string : null],
    [t('monitor.settings.query'), DATABASE_TYPES.includes(type) ? (monitor.query ?? t('monitor.settings.defaultQuery')) : null],
    [t('monitor.settings.message'), type === 'websocket' ? monitor.message || '-' : null],
    [t('monitor.settings.maxRedirects'), type === 'http' ? monitor.max_redirects : null],
    [t('monitor.settings.ignoreTls'), certificate ? (monitor.ignore_tls ? t('monitor.settings.yes') : t('monitor.settings.no')) : null],
    [t('monitor.settings.certExpiryDays'), certificate ? monitor.cert_expiry_days.join(', ') : null],
    [
      t('monitor.settings.groupRule'),
      type === 'group' ? t(`monitor.group.rule.${monitor.group_rule ?? 'any'}`, { count: monitor.group_min ?? 1 }) : null,
    ],
  ];
  return rows.filter((row): row is [string, ReactNode] => row[1] !== null && row[1] !== undefined);
}

/** The settings tab: what the monitor is configured to do, read-only (spec section 2); changes go through Edit. */
export function MonitorSettings({ monitor }: { monitor: MonitorDto }) {
  const { t, i18n } = useTranslation();
  const http = monitor.type === 'http';
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
          <InfoItem label={t('monitor.settings.type')}>
            <MonitorTypeBadge type={monitor.type} />
          </InfoItem>
          <InfoItem label={http ? t('monitor.settings.url') : t('monitor.settings.target')}>
            <MonitorTarget monitor={monitor} c={undefined} truncate={false} />
          </InfoItem>
          {http && <InfoItem label={t('monitor.settings.method')}>{monitor.method}</InfoItem>}
          {typeSettings(t, (key) => i18n.exists(key), monitor).map(([label, value]) => (
            <InfoItem key={label} label={label}>
              {value}
            </InfoItem>
          ))}
          <InfoItem label={t('monitor.settings.interval')}>{t('monitor.overview.seconds', { value: monitor.interval })}</InfoItem>
          <InfoItem label={t('monitor.settings.timeout')}>{t('monitor.overview.seconds', { value: monitor.timeout })}</InfoItem>
          {http && <InfoItem label={t('monitor.settings.expectedStatus')}>{expectedStatusLabel(monitor.expected_status)}</InfoItem>}
          <InfoItem label={t('monitor.settings.state')}>
            <Badge variant="light" color={monitor.active ? 'green' : 'gray'} data-testid="monitor-settings-state">
              {monitor.active ? t('monitor.settings.active') : t('monitor.settings.inactive')}
            </Badge>
          </InfoItem>
          <InfoItem label={t('monitor.settings.retries')}>{monitor.retries}</InfoItem>
          <InfoItem label={t('monitor.settings.retryInterval')}>
            {t('monitor.overview.seconds', { value: monitor.retry_interval })}
          </InfoItem>
          <InfoItem label={t('monitor.settings.degradedAfter')}>
            {monitor.degraded_after_ms === null
              ? t('monitor.settings.never')
              : t('monitor.overview.ms', { value: monitor.degraded_after_ms })}
          </InfoItem>
        </SimpleGrid>
        <InfoItem label={t('monitor.settings.assertions')}>
          {monitor.assertions.length === 0 ? (
            none
          ) : (
            <List size="sm" data-testid="monitor-settings-assertions">
              {monitor.assertions.map((assertion, index) => (
                <List.Item key={index}>{describeAssertion(t, assertion)}</List.Item>
              ))}
            </List>
          )}
        </InfoItem>
        {http && (
          <>
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
          </>
        )}
      </Stack>
    </Card>
  );
}
