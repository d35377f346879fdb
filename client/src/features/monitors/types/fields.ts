import {
  DATABASE_MONITOR_TYPES,
  isAddedType,
  type MessageCode,
  type MonitorColumn,
  MONITOR_TYPES,
  type DnsRecordType,
  type GroupRule,
  isAllowedRedisCommand,
  MONITOR_TYPE_DEFAULTS,
  MONITOR_TYPE_LIMITS,
  type MonitorDto,
  type MonitorType,
  type MonitorTypeFields,
} from '@vigil/proto';
import { columnField, defaultSettings, type SettingField, settingsBody, settingsFromRead, settingsProblems } from './settings';

/** The fields of the non-HTTP types as typed (numbers stay text until sent). One set serves every type. */
export interface TypeFieldValues {
  hostname: string;
  port: string;
  packetCount: string;
  dnsRecordType: DnsRecordType;
  /** `host[:port]`; empty: the system resolver. */
  dnsServer: string;
  /** WebSocket: sent once connected. */
  message: string;
  grpcService: string;
  /** gRPC over TLS. */
  tls: boolean;
  /** HTTP, TLS, WebSocket, gRPC+TLS: accept a bad certificate. */
  ignoreTls: boolean;
  /** HTTP only, as text. */
  maxRedirects: string;
  /** A secret: the saved one comes back masked and is kept while the mask is sent. */
  connectionString: string;
  query: string;
  /** Days before expiry that alert, e.g. `21, 14, 7`. */
  certExpiryDays: string;
  /** Group: how its status follows its members, and `atLeast`'s count as text. */
  groupRule: GroupRule;
  groupMin: string;
  /** An added type's settings by field name, as its inputs hold them (types/settings.ts). */
  settings: Record<string, unknown>;
}

export type TypeField =
  | 'hostname'
  | 'port'
  | 'packetCount'
  | 'dnsServer'
  | 'message'
  | 'grpcService'
  | 'maxRedirects'
  | 'connectionString'
  | 'query'
  | 'certExpiryDays'
  | 'groupMin'
  | SettingField;

export type TypeFieldErrorKey =
  | 'hostnameRequired'
  | 'hostnameInvalid'
  | 'portInvalid'
  | 'packetCount'
  | 'dnsServerInvalid'
  | 'messageTooLong'
  | 'grpcServiceTooLong'
  | 'maxRedirects'
  | 'connectionStringRequired'
  | 'connectionStringTooLong'
  | 'queryTooLong'
  | 'redisCommand'
  | 'certExpiryDays'
  | 'groupMin';

const typesWith = (column: MonitorColumn): readonly MonitorType[] => MONITOR_TYPES.filter((type) => columnField(type, column));

/** Types whose target is `hostname` (and, for some, `port`), or a `url`: the spec's fields stored in those columns. */
export const HOST_TYPES = typesWith('hostname');
export const PORT_TYPES = typesWith('port');
export const URL_TYPES = typesWith('url');
export const DATABASE_TYPES: readonly MonitorType[] = DATABASE_MONITOR_TYPES;

/**
 * Whether the type's checks can see a certificate: TLS always, gRPC over TLS, HTTP and WebSocket unless their URL is
 * a plain `http:`/`ws:` one (an empty URL still shows the settings, as the scheme is not chosen yet).
 */
export function usesTls(type: MonitorType, values: Pick<TypeFieldValues, 'tls'> & { url?: string }): boolean {
  const plain = /^\s*(http|ws):/i.test(values.url ?? '');
  return type === 'tls' || (type === 'grpc' && values.tls) || ((type === 'http' || type === 'websocket') && !plain);
}

export function defaultTypeFieldValues(): TypeFieldValues {
  return {
    hostname: '',
    port: '',
    packetCount: String(MONITOR_TYPE_DEFAULTS.packetCount),
    dnsRecordType: MONITOR_TYPE_DEFAULTS.dnsRecordType,
    dnsServer: '',
    message: '',
    grpcService: '',
    tls: false,
    ignoreTls: MONITOR_TYPE_DEFAULTS.ignoreTls,
    maxRedirects: String(MONITOR_TYPE_DEFAULTS.maxRedirects),
    connectionString: '',
    query: '',
    certExpiryDays: MONITOR_TYPE_DEFAULTS.certExpiryDays.join(', '),
    groupRule: 'any',
    groupMin: '2',
    settings: {},
  };
}

export function typeFieldValuesFrom(monitor: MonitorDto): TypeFieldValues {
  const defaults = defaultTypeFieldValues();
  return {
    hostname: monitor.hostname ?? '',
    port: monitor.port === null ? '' : String(monitor.port),
    packetCount: monitor.packet_count === null ? defaults.packetCount : String(monitor.packet_count),
    dnsRecordType: monitor.dns_record_type ?? defaults.dnsRecordType,
    dnsServer: monitor.dns_server ?? '',
    message: monitor.message ?? '',
    grpcService: monitor.grpc_service ?? '',
    tls: monitor.tls ?? false,
    ignoreTls: monitor.ignore_tls,
    maxRedirects: monitor.max_redirects === null ? defaults.maxRedirects : String(monitor.max_redirects),
    connectionString: monitor.connection_string ?? '',
    query: monitor.query ?? '',
    certExpiryDays: monitor.cert_expiry_days.length > 0 ? monitor.cert_expiry_days.join(', ') : defaults.certExpiryDays,
    groupRule: monitor.group_rule ?? defaults.groupRule,
    groupMin: monitor.group_min === null ? defaults.groupMin : String(monitor.group_min),
    settings: settingsFromRead(monitor.type, monitor.settings),
  };
}

/**
 * The fields a newly chosen type starts with: its usual port when none was typed (TLS 443, MQTT 1883…), and for
 * another type its own settings' defaults (nothing of the old type's settings carries over).
 */
export function typeFieldsForType(type: MonitorType, values: TypeFieldValues, previous?: MonitorType): TypeFieldValues {
  const portDefault = columnField(type, 'port')?.default;
  const port = values.port.trim() === '' && portDefault !== undefined ? String(portDefault) : values.port;
  const settings = previous === type ? values.settings : defaultSettings(type);
  return { ...values, port, settings };
}

const WHOLE = /^\s*\d+\s*$/;

function whole(text: string): number | null {
  return WHOLE.test(text) ? Number(text.trim()) : null;
}

/** A host name or IP address: no spaces, scheme, path, credentials or port (those have their own fields). */
function hostnameError(text: string): TypeFieldErrorKey | undefined {
  const host = text.trim();
  if (!host) return 'hostnameRequired';
  if (host.length > MONITOR_TYPE_LIMITS.hostnameMax || /[\s/@?#]/.test(host)) return 'hostnameInvalid';
  return undefined;
}

function portValid(text: string): boolean {
  const port = whole(text);
  return port !== null && port >= MONITOR_TYPE_LIMITS.portMin && port <= MONITOR_TYPE_LIMITS.portMax;
}

/** `host`, `host:port`, `[v6]:port` or a bare IPv6 address. */
function dnsServerValid(text: string): boolean {
  const server = text.trim();
  if (server.length > MONITOR_TYPE_LIMITS.hostnameMax + 6 || /[\s/@?#]/.test(server)) return false;
  const bracketed = /^\[[0-9a-fA-F:.]+\](?::(\d+))?$/.exec(server);
  if (bracketed) return bracketed[1] === undefined || portValid(bracketed[1]);
  const parts = server.split(':');
  if (parts.length === 2) return parts[0] !== '' && portValid(parts[1]);
  return true;
}

/** `21, 14, 7`: up to five whole days from 1 to 365. */
export function parseCertExpiryDays(text: string): number[] | null {
  const parts = text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  if (parts.length === 0 || parts.length > MONITOR_TYPE_LIMITS.certExpiryThresholdsMax) return null;
  const days = parts.map((part) => whole(part));
  if (days.some((day) => day === null || day < MONITOR_TYPE_LIMITS.certExpiryDaysMin || day > MONITOR_TYPE_LIMITS.certExpiryDaysMax)) {
    return null;
  }
  return [...new Set(days as number[])].sort((a, b) => b - a);
}

/** The type's own fields' problems (the URL, method and headers of HTTP are the form's). */
export function validateTypeFields(
  type: MonitorType,
  values: TypeFieldValues & { url: string },
): Partial<Record<TypeField, TypeFieldErrorKey | MessageCode>> {
  const errors: Partial<Record<TypeField, TypeFieldErrorKey | MessageCode>> = {};
  // An added type's optional host or port may stay empty; the first types' are always required.
  const optional = (column: MonitorColumn, text: string) => isAddedType(type) && !columnField(type, column)?.required && !text.trim();
  if (HOST_TYPES.includes(type) && !optional('hostname', values.hostname)) {
    const hostname = hostnameError(values.hostname);
    if (hostname) errors.hostname = hostname;
  }
  if (PORT_TYPES.includes(type) && !optional('port', values.port) && !portValid(values.port)) errors.port = 'portInvalid';
  Object.assign(errors, settingsProblems(type, values.settings));
  if (type === 'ping') {
    const count = whole(values.packetCount);
    if (count === null || count < MONITOR_TYPE_LIMITS.packetCountMin || count > MONITOR_TYPE_LIMITS.packetCountMax) {
      errors.packetCount = 'packetCount';
    }
  }
  if (type === 'dns' && values.dnsServer.trim() && !dnsServerValid(values.dnsServer)) errors.dnsServer = 'dnsServerInvalid';
  if (type === 'websocket' && values.message.length > MONITOR_TYPE_LIMITS.messageMax) errors.message = 'messageTooLong';
  if (type === 'grpc' && values.grpcService.trim().length > MONITOR_TYPE_LIMITS.grpcServiceMax) errors.grpcService = 'grpcServiceTooLong';
  if (type === 'http') {
    const redirects = whole(values.maxRedirects);
    if (redirects === null || redirects > MONITOR_TYPE_LIMITS.maxRedirectsMax) errors.maxRedirects = 'maxRedirects';
  }
  if (DATABASE_TYPES.includes(type)) {
    if (!values.connectionString.trim()) errors.connectionString = 'connectionStringRequired';
    else if (values.connectionString.trim().length > MONITOR_TYPE_LIMITS.connectionStringMax)
      errors.connectionString = 'connectionStringTooLong';
    if (values.query.trim().length > MONITOR_TYPE_LIMITS.queryMax) errors.query = 'queryTooLong';
    else if (type === 'redis' && !isAllowedRedisCommand(values.query.trim())) errors.query = 'redisCommand';
  }
  if (usesTls(type, values) && parseCertExpiryDays(values.certExpiryDays) === null) errors.certExpiryDays = 'certExpiryDays';
  if (type === 'group' && values.groupRule === 'atLeast') {
    const min = whole(values.groupMin);
    if (min === null || min < MONITOR_TYPE_LIMITS.groupMinMin || min > MONITOR_TYPE_LIMITS.groupMinMax) errors.groupMin = 'groupMin';
  }
  return errors;
}

/** The type's part of the create/update body: `type` and only the fields that type reads. */
export function toTypeFields(type: MonitorType, values: TypeFieldValues, url: string): MonitorTypeFields {
  const certificate = {
    ignoreTls: values.ignoreTls,
    certExpiryDays: parseCertExpiryDays(values.certExpiryDays) ?? [...MONITOR_TYPE_DEFAULTS.certExpiryDays],
  };
  const hostname = values.hostname.trim();
  const port = whole(values.port) ?? 0;
  if (isAddedType(type)) return { type, ...addedColumns(type, values, url), ...settingsBody(type, values.settings) };
  switch (type) {
    case 'http':
      return { type, url, maxRedirects: whole(values.maxRedirects) ?? MONITOR_TYPE_DEFAULTS.maxRedirects, ...certificate };
    case 'tcp':
      return { type, hostname, port };
    case 'ping':
      return { type, hostname, packetCount: whole(values.packetCount) ?? MONITOR_TYPE_DEFAULTS.packetCount };
    case 'dns':
      return { type, hostname, dnsRecordType: values.dnsRecordType, dnsServer: values.dnsServer.trim() || null };
    case 'tls':
      return { type, hostname, port, ...certificate };
    case 'push':
      return { type };
    case 'websocket':
      return { type, url, message: values.message === '' ? null : values.message, ...certificate };
    case 'grpc':
      return values.tls
        ? { type, hostname, port, grpcService: values.grpcService.trim(), tls: true, ...certificate }
        : { type, hostname, port, grpcService: values.grpcService.trim(), tls: false };
    case 'postgres':
    case 'mysql':
    case 'redis':
      return { type, connectionString: values.connectionString.trim(), query: values.query.trim() || null };
    case 'group':
      return values.groupRule === 'atLeast'
        ? { type, groupRule: 'atLeast', groupMin: whole(values.groupMin) ?? MONITOR_TYPE_LIMITS.groupMinMin }
        : { type, groupRule: values.groupRule };
  }
}

/** An added type's shared columns for the body: only those its spec has, left out when empty. */
function addedColumns(type: MonitorType, values: TypeFieldValues, url: string): { hostname?: string; port?: number; url?: string } {
  const port = whole(values.port);
  return {
    ...(HOST_TYPES.includes(type) && values.hostname.trim() ? { hostname: values.hostname.trim() } : {}),
    ...(PORT_TYPES.includes(type) && port !== null ? { port } : {}),
    ...(URL_TYPES.includes(type) && url ? { url } : {}),
  };
}
