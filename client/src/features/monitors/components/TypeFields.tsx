import { Checkbox, NativeSelect, PasswordInput, SimpleGrid, Stack, Text, Textarea, TextInput } from '@mantine/core';
import {
  DATABASE_MONITOR_TYPES,
  DNS_RECORD_TYPES,
  type DnsRecordType,
  isAddedType,
  MONITOR_TYPE_DEFAULTS,
  SECRET_MASK,
} from '@vigil/proto';
import { useTranslation } from 'react-i18next';
import type { FieldGroupProps } from '../form';
import { usesTls } from '../types/fields';
import { GroupRuleFields } from './GroupRuleFields';
import { HttpFields, UrlField } from './HttpFields';
import { SpecTypeFields } from './SpecTypeFields';

/** The types this group of fields is shown for. */
type DatabaseMonitorType = (typeof DATABASE_MONITOR_TYPES)[number];

const monospace = { input: { fontFamily: 'var(--mantine-font-family-monospace)' } };

function HostnameField({ values, set, fieldError }: FieldGroupProps) {
  const { t } = useTranslation();
  return (
    <TextInput
      name="hostname"
      label={t('monitor.form.hostname')}
      placeholder={t('monitor.form.hostnamePlaceholder')}
      withAsterisk
      autoComplete="off"
      value={values.hostname}
      error={fieldError('hostname')}
      onChange={(event) => set('hostname', event.currentTarget.value)}
    />
  );
}

function PortField({ values, set, fieldError }: FieldGroupProps) {
  const { t } = useTranslation();
  return (
    <TextInput
      name="port"
      inputMode="numeric"
      label={t('monitor.form.port')}
      withAsterisk
      value={values.port}
      error={fieldError('port')}
      onChange={(event) => set('port', event.currentTarget.value)}
    />
  );
}

/** What a certificate-seeing check adds: accept a bad certificate, and the days before expiry that alert. */
function CertificateFields({ values, set, fieldError }: FieldGroupProps) {
  const { t } = useTranslation();
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
      <TextInput
        name="certExpiryDays"
        label={t('monitor.form.certExpiryDays')}
        description={t('monitor.form.certExpiryDaysDescription')}
        placeholder={MONITOR_TYPE_DEFAULTS.certExpiryDays.join(', ')}
        value={values.certExpiryDays}
        error={fieldError('certExpiryDays')}
        onChange={(event) => set('certExpiryDays', event.currentTarget.value)}
      />
      <Checkbox
        name="ignoreTls"
        mt={{ base: 0, sm: 'xl' }}
        label={t('monitor.form.ignoreTls')}
        description={t('monitor.form.ignoreTlsDescription')}
        checked={values.ignoreTls}
        onChange={(event) => set('ignoreTls', event.currentTarget.checked)}
      />
    </SimpleGrid>
  );
}

/** A database's secret connection string (masked once saved, kept while the mask is sent) and its query. */
function DatabaseFields({ values, set, fieldError }: FieldGroupProps) {
  const { t } = useTranslation();
  const kept = values.connectionString.includes(SECRET_MASK);
  return (
    <>
      <PasswordInput
        name="connectionString"
        label={t('monitor.form.connectionString')}
        placeholder={t(`monitor.form.connectionStringPlaceholder.${values.type as DatabaseMonitorType}`)}
        description={kept ? t('monitor.form.connectionStringKept') : t('monitor.form.connectionStringDescription')}
        withAsterisk
        autoComplete="off"
        value={values.connectionString}
        error={fieldError('connectionString')}
        onChange={(event) => set('connectionString', event.currentTarget.value)}
      />
      <Textarea
        name="query"
        label={t('monitor.form.query')}
        description={t('monitor.form.queryDescription')}
        placeholder={values.type === 'redis' ? 'PING' : 'SELECT 1'}
        autosize
        minRows={2}
        maxRows={8}
        styles={monospace}
        value={values.query}
        error={fieldError('query')}
        onChange={(event) => set('query', event.currentTarget.value)}
      />
    </>
  );
}

/** The chosen type's own fields, each with its validation message; an added type's are drawn from its spec. */
export function TypeFields(props: FieldGroupProps) {
  const { t } = useTranslation();
  const { values, set, fieldError } = props;
  if (isAddedType(values.type)) return <SpecTypeFields {...props} />;
  const certificate = usesTls(values.type, values) && <CertificateFields {...props} />;
  switch (values.type) {
    case 'http':
      return (
        <>
          <HttpFields {...props} />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <TextInput
              name="maxRedirects"
              inputMode="numeric"
              label={t('monitor.form.maxRedirects')}
              description={t('monitor.form.maxRedirectsDescription')}
              value={values.maxRedirects}
              error={fieldError('maxRedirects')}
              onChange={(event) => set('maxRedirects', event.currentTarget.value)}
            />
          </SimpleGrid>
          {certificate}
        </>
      );
    case 'tcp':
    case 'tls':
      return (
        <>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <HostnameField {...props} />
            <PortField {...props} />
          </SimpleGrid>
          {certificate}
        </>
      );
    case 'ping':
      return (
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <HostnameField {...props} />
          <TextInput
            name="packetCount"
            inputMode="numeric"
            label={t('monitor.form.packetCount')}
            description={t('monitor.form.packetCountDescription')}
            value={values.packetCount}
            error={fieldError('packetCount')}
            onChange={(event) => set('packetCount', event.currentTarget.value)}
          />
        </SimpleGrid>
      );
    case 'dns':
      return (
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <HostnameField {...props} />
          <NativeSelect
            name="dnsRecordType"
            label={t('monitor.form.dnsRecordType')}
            data={[...DNS_RECORD_TYPES]}
            value={values.dnsRecordType}
            onChange={(event) => set('dnsRecordType', event.currentTarget.value as DnsRecordType)}
          />
          <TextInput
            name="dnsServer"
            label={t('monitor.form.dnsServer')}
            description={t('monitor.form.dnsServerDescription')}
            placeholder="1.1.1.1:53"
            autoComplete="off"
            value={values.dnsServer}
            error={fieldError('dnsServer')}
            onChange={(event) => set('dnsServer', event.currentTarget.value)}
          />
        </SimpleGrid>
      );
    case 'push':
      return (
        <Text size="sm" c="dimmed" data-testid="monitor-push-hint">
          {t('monitor.form.pushHint')}
        </Text>
      );
    case 'websocket':
      return (
        <>
          <UrlField {...props} websocket />
          <Textarea
            name="message"
            label={t('monitor.form.message')}
            description={t('monitor.form.messageDescription')}
            autosize
            minRows={2}
            maxRows={8}
            styles={monospace}
            value={values.message}
            error={fieldError('message')}
            onChange={(event) => set('message', event.currentTarget.value)}
          />
          {certificate}
        </>
      );
    case 'grpc':
      return (
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            <HostnameField {...props} />
            <PortField {...props} />
            <TextInput
              name="grpcService"
              label={t('monitor.form.grpcService')}
              description={t('monitor.form.grpcServiceDescription')}
              autoComplete="off"
              value={values.grpcService}
              error={fieldError('grpcService')}
              onChange={(event) => set('grpcService', event.currentTarget.value)}
            />
            <Checkbox
              name="tls"
              mt={{ base: 0, sm: 'xl' }}
              label={t('monitor.form.grpcTls')}
              checked={values.tls}
              onChange={(event) => set('tls', event.currentTarget.checked)}
            />
          </SimpleGrid>
          {certificate}
        </Stack>
      );
    case 'postgres':
    case 'mysql':
    case 'redis':
      return <DatabaseFields {...props} />;
    case 'group':
      return <GroupRuleFields {...props} />;
  }
}
