/**
 * The first types' specs. Their `own` fields are stored in `settings` like every type's and read at the top level of a
 * monitor (`packet_count`), as the API had them before the type specs. Their requests are checked from these fields by
 * the validation every type uses (`strict`: values of their kind only, with their own messages, as the API always
 * answered); rules that need the server's parsers (a DNS server, a connection string) are its hooks in the type's
 * folder (server/src/monitors/types/<type>/).
 */
import { GROUP_RULES } from '../monitors';
import type { Localized } from '../templates';
import { hostPort, type MonitorFieldSpec, type MonitorTypeSpec, type TargetParts } from '../monitor-type-specs';

export const DNS_RECORD_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'TXT', 'NS', 'SOA', 'SRV', 'CAA', 'PTR'] as const;
export type DnsRecordType = (typeof DNS_RECORD_TYPES)[number];

/** What the first types' fields are when a request leaves them out (MONITOR_TYPE_DEFAULTS spreads them). */
export const FIRST_TYPE_DEFAULTS = {
  packetCount: 3,
  dnsRecordType: 'A' as DnsRecordType,
  maxRedirects: 5,
  ignoreTls: false,
} as const;
const D = FIRST_TYPE_DEFAULTS;

const own = (name: string, kind: MonitorFieldSpec['kind'], extra: Partial<MonitorFieldSpec> = {}): MonitorFieldSpec => ({
  name,
  kind,
  column: 'own',
  strict: true,
  ...extra,
});
const URL: MonitorFieldSpec = { name: 'url', kind: 'url', required: true, column: 'url', codes: { required: 'monitors.urlRequired' } };
const HOSTNAME: MonitorFieldSpec = {
  name: 'hostname',
  kind: 'text',
  required: true,
  column: 'hostname',
  strict: true,
  max: 253,
  codes: { required: 'monitors.hostnameRequired', invalid: 'monitors.hostnameInvalid' },
};
const PORT: MonitorFieldSpec = {
  name: 'port',
  kind: 'number',
  required: true,
  column: 'port',
  min: 1,
  max: 65_535,
  strict: true,
  codes: { required: 'monitors.portInvalid', invalid: 'monitors.portInvalid' },
};
const IGNORE_TLS = own('ignoreTls', 'boolean', {
  default: D.ignoreTls,
  whenAbsent: false,
  codes: { invalid: 'monitors.ignoreTlsInvalid' },
});
/** Whole days, at most five thresholds (a single number is one). */
const CERT_EXPIRY_DAYS: MonitorFieldSpec = {
  name: 'certExpiryDays',
  kind: 'list',
  column: 'cert_expiry_days',
  strict: true,
  max: 5,
  valid: (day) => /^\d{1,3}$/.test(day) && Number(day) >= 1 && Number(day) <= 365,
  codes: { invalid: 'monitors.certExpiryDaysInvalid' },
};
/** A URL-shaped secret: reads mask its password only, so the server it names stays readable. */
const DATABASE: MonitorFieldSpec[] = [
  own('connectionString', 'secret', {
    required: true,
    max: 2048,
    codes: { required: 'monitors.connectionStringRequired', invalid: 'monitors.connectionStringInvalid' },
  }),
  own('query', 'text', { multiline: true, clearable: true, max: 4096, codes: { invalid: 'monitors.queryTooLong' } }),
];

const same = (name: string): Localized => ({ 'en-US': name, 'zh-CN': name });
const url = (parts: TargetParts) => parts.url ?? '';
const hostAndPort = (parts: TargetParts) => hostPort(parts.hostname, parts.port);
/** The server reads hostname and port out of the (secret) connection string; the stored `url` says the same. */
const database = (parts: TargetParts) => (parts.hostname ? hostAndPort(parts) : (parts.url ?? '').replace(/^[a-z]+:\/\//, ''));

export const FIRST_TYPE_SPECS = {
  http: {
    name: same('HTTP(S)'),
    fields: [
      URL,
      IGNORE_TLS,
      own('maxRedirects', 'number', { min: 0, max: 10, default: D.maxRedirects, codes: { invalid: 'monitors.maxRedirectsInvalid' } }),
      CERT_EXPIRY_DAYS,
    ],
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
    fields: [
      HOSTNAME,
      own('packetCount', 'number', { min: 1, max: 10, default: D.packetCount, codes: { invalid: 'monitors.packetCountInvalid' } }),
    ],
    sources: ['responseTime', 'packetLoss'],
    target: (parts) => parts.hostname ?? '',
    icon: 'radar',
  },
  dns: {
    name: same('DNS'),
    fields: [
      HOSTNAME,
      own('dnsRecordType', 'select', {
        options: DNS_RECORD_TYPES,
        uppercase: true,
        default: D.dnsRecordType,
        codes: { invalid: 'monitors.dnsRecordTypeInvalid' },
      }),
      // host[:port]; the rest of the rule is the server's (types/dns/dns.fields.ts). Blank or null: the system resolver.
      own('dnsServer', 'text', { clearable: true, max: 260, codes: { invalid: 'monitors.dnsServerInvalid' } }),
    ],
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
    fields: [
      {
        name: 'pushToken',
        kind: 'secret',
        column: 'push_token',
        strict: true,
        // Uptime Kuma 1.x made 10-character tokens; cron jobs calling them keep working after an import.
        min: 10,
        max: 64,
        valid: (token) => /^[A-Za-z0-9_-]+$/.test(token),
        codes: { invalid: 'monitors.pushTokenInvalid' },
      },
    ],
    sources: ['responseTime', 'body'],
    target: () => null,
    targetless: { 'en-US': 'heartbeat', 'zh-CN': '心跳' },
    icon: 'heartbeat',
  },
  websocket: {
    name: same('WebSocket'),
    fields: [
      URL,
      own('message', 'text', { multiline: true, clearable: true, max: 4096, codes: { invalid: 'monitors.messageTooLong' } }),
      IGNORE_TLS,
      CERT_EXPIRY_DAYS,
    ],
    sources: ['responseTime', 'body', 'jsonPath', 'certificateDays'],
    target: url,
    icon: 'arrows-exchange',
    certificates: true,
  },
  grpc: {
    name: same('gRPC'),
    fields: [
      HOSTNAME,
      PORT,
      own('grpcService', 'text', { default: '', min: 0, max: 200, codes: { invalid: 'monitors.grpcServiceInvalid' } }),
      own('tls', 'boolean', { default: false, codes: { invalid: 'monitors.tlsInvalid' } }),
      IGNORE_TLS,
      CERT_EXPIRY_DAYS,
    ],
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
    fields: [
      own('groupRule', 'select', { options: GROUP_RULES, default: 'any', codes: { invalid: 'monitors.groupRuleInvalid' } }),
      own('groupMin', 'number', { min: 1, max: 1000, codes: { invalid: 'monitors.groupMinInvalid' } }),
    ],
    sources: [],
    target: () => null,
    targetless: { 'en-US': 'its members', 'zh-CN': '其成员' },
    icon: 'folders',
    unscheduled: true,
  },
} as const satisfies Record<string, MonitorTypeSpec>;
