/**
 * The first types' specs. Their fields keep the columns and validation they were built with (monitor-type-fields.dto.ts
 * on the server); what derives from the spec for them is the field list, required fields, sources, targets and icons.
 */
import type { Localized } from '../templates';
import { hostPort, type MonitorFieldSpec, type MonitorTypeSpec, type TargetParts } from '../monitor-type-specs';

const own = (name: string, kind: MonitorFieldSpec['kind'], extra: Partial<MonitorFieldSpec> = {}): MonitorFieldSpec => ({
  name,
  kind,
  column: 'own',
  ...extra,
});
const URL: MonitorFieldSpec = { name: 'url', kind: 'url', required: true, column: 'url' };
const HOSTNAME: MonitorFieldSpec = { name: 'hostname', kind: 'text', required: true, column: 'hostname' };
const PORT: MonitorFieldSpec = { name: 'port', kind: 'number', required: true, column: 'port', min: 1, max: 65_535 };
const IGNORE_TLS = own('ignoreTls', 'boolean', { default: false });
const CERT_EXPIRY_DAYS = own('certExpiryDays', 'list');
const DATABASE: MonitorFieldSpec[] = [own('connectionString', 'secret', { required: true }), own('query', 'text')];

const same = (name: string): Localized => ({ 'en-US': name, 'zh-CN': name });
const url = (parts: TargetParts) => parts.url ?? '';
const hostAndPort = (parts: TargetParts) => hostPort(parts.hostname, parts.port);
/** The server reads hostname and port out of the (secret) connection string; the stored `url` says the same. */
const database = (parts: TargetParts) => (parts.hostname ? hostAndPort(parts) : (parts.url ?? '').replace(/^[a-z]+:\/\//, ''));

export const FIRST_TYPE_SPECS = {
  http: {
    name: same('HTTP(S)'),
    fields: [URL, IGNORE_TLS, own('maxRedirects', 'number', { min: 0, max: 10 }), CERT_EXPIRY_DAYS],
    sources: ['status', 'responseTime', 'body', 'jsonPath', 'header', 'certificateDays'],
    target: url,
    icon: 'world-www',
    certificates: true,
  },
  tcp: {
    name: { 'en-US': 'TCP port', 'zh-CN': 'TCP 端口' },
    fields: [HOSTNAME, PORT],
    sources: ['responseTime'],
    target: hostAndPort,
    icon: 'plug-connected',
  },
  ping: {
    name: same('Ping'),
    fields: [HOSTNAME, own('packetCount', 'number', { min: 1, max: 10 })],
    sources: ['responseTime', 'packetLoss'],
    target: (parts) => parts.hostname ?? '',
    icon: 'radar',
  },
  dns: {
    name: same('DNS'),
    fields: [HOSTNAME, own('dnsRecordType', 'select'), own('dnsServer', 'text')],
    sources: ['responseTime', 'dnsAnswer'],
    target: (parts) => `${parts.hostname ?? ''} ${parts.dns_record_type ?? 'A'}`,
    icon: 'sitemap',
  },
  tls: {
    name: { 'en-US': 'TLS certificate', 'zh-CN': 'TLS 证书' },
    fields: [HOSTNAME, { ...PORT, required: false, default: 443 }, IGNORE_TLS, CERT_EXPIRY_DAYS],
    sources: ['responseTime', 'certificateDays'],
    target: hostAndPort,
    icon: 'certificate',
    certificates: true,
  },
  push: {
    name: { 'en-US': 'Push', 'zh-CN': '推送' },
    fields: [own('pushToken', 'secret')],
    sources: ['responseTime', 'body'],
    target: () => null,
    targetless: { 'en-US': 'heartbeat', 'zh-CN': '心跳' },
    icon: 'heartbeat',
  },
  websocket: {
    name: same('WebSocket'),
    fields: [URL, own('message', 'text'), IGNORE_TLS, CERT_EXPIRY_DAYS],
    sources: ['responseTime', 'body', 'jsonPath', 'certificateDays'],
    target: url,
    icon: 'arrows-exchange',
    certificates: true,
  },
  grpc: {
    name: same('gRPC'),
    fields: [HOSTNAME, PORT, own('grpcService', 'text'), own('tls', 'boolean'), IGNORE_TLS, CERT_EXPIRY_DAYS],
    sources: ['responseTime', 'body', 'certificateDays'],
    target: hostAndPort,
    icon: 'api',
    certificates: true,
  },
  postgres: {
    name: same('PostgreSQL'),
    fields: DATABASE,
    sources: ['responseTime', 'rowCount', 'value'],
    target: database,
    icon: 'database',
  },
  mysql: {
    name: same('MySQL / MariaDB'),
    fields: DATABASE,
    sources: ['responseTime', 'rowCount', 'value'],
    target: database,
    icon: 'brand-mysql',
  },
  redis: {
    name: same('Redis'),
    fields: DATABASE,
    sources: ['responseTime', 'value'],
    target: database,
    icon: 'server-bolt',
  },
  group: {
    name: { 'en-US': 'Group', 'zh-CN': '分组' },
    fields: [own('groupRule', 'select'), own('groupMin', 'number', { min: 1, max: 1000 })],
    sources: [],
    target: () => null,
    targetless: { 'en-US': 'its members', 'zh-CN': '其成员' },
    icon: 'folders',
    unscheduled: true,
  },
} as const satisfies Record<string, MonitorTypeSpec>;
