/**
 * Monitor types and assertions: what each type is configured with, what its checks observe, and the assertion
 * language evaluated on every result. Requests are camelCase, reads snake_case (as the rest of the monitor API).
 */

import type { GroupRule } from './monitors';
import type { MonitorTypeSpec } from './monitor-type-specs';
import { ADDED_TYPE_SPECS, MONITOR_TYPE_SPECS } from './type-specs';
import { FIRST_TYPE_DEFAULTS, type DnsRecordType } from './type-specs/first-types';

export type MonitorType = keyof typeof MONITOR_TYPE_SPECS;
export const MONITOR_TYPES = Object.keys(MONITOR_TYPE_SPECS) as readonly MonitorType[];
/** Types added after the first ones: their settings are stored in `settings` (monitor-type-specs.ts). */
export type AddedMonitorType = keyof typeof ADDED_TYPE_SPECS;
export const ADDED_MONITOR_TYPES = Object.keys(ADDED_TYPE_SPECS) as readonly AddedMonitorType[];
export const isAddedType = (type: MonitorType): type is AddedMonitorType => Object.hasOwn(ADDED_TYPE_SPECS, type);

/** A type's spec: fields, sources, target and icon. */
export const typeSpec = (type: MonitorType): MonitorTypeSpec => MONITOR_TYPE_SPECS[type];
/** Types never checked (group, manual): the schedulers and the check routes leave them out. */
export const UNSCHEDULED_TYPES = MONITOR_TYPES.filter((type) => typeSpec(type).unscheduled === true);
export const isScheduled = (type: MonitorType): boolean => !UNSCHEDULED_TYPES.includes(type);

/** `POST /api/monitors/{id}/status`: a manual monitor's status, kept in its history like a check. */
export const MANUAL_STATUSES = ['up', 'down', 'degraded'] as const;
export type ManualStatus = (typeof MANUAL_STATUSES)[number];
export interface SetMonitorStatusRequest {
  status: ManualStatus;
  /** Why, shown in the history and the notifications (at most MONITOR_TYPE_LIMITS.messageMax characters). */
  message?: string | null;
}

export { DNS_RECORD_TYPES, type DnsRecordType } from './type-specs/first-types';

/** Types whose target is a database reached through a secret connection string. */
export const DATABASE_MONITOR_TYPES = ['postgres', 'mysql', 'redis'] as const satisfies readonly MonitorType[];

export const MONITOR_TYPE_LIMITS = {
  hostnameMax: 253,
  portMin: 1,
  portMax: 65_535,
  packetCountMin: 1,
  packetCountMax: 10,
  maxRedirectsMax: 10,
  connectionStringMax: 2048,
  queryMax: 4096,
  messageMax: 4096,
  grpcServiceMax: 200,
  assertionsMax: 20,
  assertionPathMax: 200,
  assertionValueMax: 1024,
  certExpiryDaysMin: 1,
  certExpiryDaysMax: 365,
  certExpiryThresholdsMax: 5,
  /** Uptime Kuma 1.x made 10-character tokens; cron jobs calling them keep working after an import. */
  pushTokenMin: 10,
  pushTokenMax: 64,
  groupMinMin: 1,
  groupMinMax: 1000,
  /** Groups nest at most this deep (a member's chain of parents). */
  groupDepthMax: 10,
} as const;

export const MONITOR_TYPE_DEFAULTS = {
  type: 'http' as MonitorType,
  ...FIRST_TYPE_DEFAULTS,
  tlsPort: 443,
  certExpiryDays: [14] as readonly number[],
} as const;

// ---------------------------------------------------------------------------------------------------------------
// Assertions

export const ASSERTION_SOURCES = [
  'status',
  'responseTime',
  'body',
  'jsonPath',
  'header',
  'certificateDays',
  'dnsAnswer',
  'packetLoss',
  'rowCount',
  'value',
  /** smtp: the greeting line; capabilities: the EHLO extensions, one per line. */
  'banner',
  'capabilities',
  /** amqp: the queue's ready messages and consumers. */
  'queueDepth',
  'consumers',
  /** nats: messages a JetStream consumer has not yet acknowledged (its pending count). */
  'streamLag',
  /** ntp: the clock offset and root dispersion in milliseconds, and the server's stratum. */
  'offset',
  'stratum',
  'rootDispersion',
  /** domain: days until the registration expires. */
  'expiryDays',
  /** browser: milliseconds until the load event, console errors seen, and the URL the page ended on. */
  'loadTime',
  'consoleErrors',
  'finalUrl',
  /** container: its CPU (% of the host), memory in bytes, state (`running`, `exited`…) and health (`healthy`, `none`…). */
  'cpu',
  'memory',
  'state',
  'health',
] as const;
export type AssertionSource = (typeof ASSERTION_SOURCES)[number];

export const ASSERTION_OPERATORS = [
  'eq',
  'ne',
  'lt',
  'lte',
  'gt',
  'gte',
  'contains',
  'notContains',
  'matches',
  'exists',
  'notExists',
] as const;
export type AssertionOperator = (typeof ASSERTION_OPERATORS)[number];

/** Sources whose values are numbers: assertion values on them are sent as numbers. */
export const NUMERIC_SOURCES: readonly AssertionSource[] = [
  'status',
  'responseTime',
  'certificateDays',
  'packetLoss',
  'rowCount',
  'queueDepth',
  'consumers',
  'streamLag',
  'offset',
  'stratum',
  'rootDispersion',
  'expiryDays',
  'loadTime',
  'consoleErrors',
  'cpu',
  'memory',
];

/** Operators that take no `value`. */
export const VALUELESS_OPERATORS: readonly AssertionOperator[] = ['exists', 'notExists'];
/** Sources that need `path` (the JSONPath, the header name). */
export const PATH_SOURCES: readonly AssertionSource[] = ['jsonPath', 'header'];

/** One condition on a check's result, e.g. `{ source: 'jsonPath', path: '$.status', operator: 'eq', value: 'ok' }`. */
export interface Assertion {
  source: AssertionSource;
  path?: string;
  operator: AssertionOperator;
  /** Compared as a number when both sides are numeric, else as text; absent for exists/notExists. */
  value?: string | number | boolean | null;
  /** A soft assertion: its failure makes a successful check `degraded` instead of failing it. */
  soft?: boolean;
}

/** Which sources a type's checks can observe (an assertion on another source is refused on save). */
export const ASSERTION_SOURCES_BY_TYPE = Object.fromEntries(
  MONITOR_TYPES.map((type) => [type, MONITOR_TYPE_SPECS[type].sources]),
) as unknown as { [T in MonitorType]: readonly AssertionSource[] };

/** The outcome of one assertion on one result (`POST /api/monitors/test` answers these). */
export interface AssertionOutcome {
  assertion: Assertion;
  ok: boolean;
  /** The value seen, as text (shortened); null when the source had nothing. */
  actual: string | null;
  /** Why it failed, e.g. `$.status eq "ok" failed: got "degraded"`; null when it held. */
  error: string | null;
}

// ---------------------------------------------------------------------------------------------------------------
// Per-type request fields (create and update bodies add these to MonitorRequest)

interface TypeRequestBase {
  assertions?: Assertion[];
}

export interface HttpTypeFields extends TypeRequestBase {
  type?: 'http';
  url: string;
  ignoreTls?: boolean;
  maxRedirects?: number;
  /** Days before expiry at which `certificate.expiring` is raised, once per threshold per certificate. */
  certExpiryDays?: number | number[];
}
export interface TcpTypeFields extends TypeRequestBase {
  type: 'tcp';
  hostname: string;
  port: number;
}
export interface PingTypeFields extends TypeRequestBase {
  type: 'ping';
  hostname: string;
  packetCount?: number;
}
export interface DnsTypeFields extends TypeRequestBase {
  type: 'dns';
  hostname: string;
  dnsRecordType?: DnsRecordType;
  /** `host[:port]`; absent: the system resolver. */
  dnsServer?: string | null;
}
export interface TlsTypeFields extends TypeRequestBase {
  type: 'tls';
  hostname: string;
  port?: number;
  ignoreTls?: boolean;
  certExpiryDays?: number | number[];
}
export interface PushTypeFields extends TypeRequestBase {
  type: 'push';
  /** The token of a monitor moved from Uptime Kuma, so its push URLs keep working; absent: the server makes one. */
  pushToken?: string;
}
export interface WebsocketTypeFields extends TypeRequestBase {
  type: 'websocket';
  url: string;
  /** Sent once connected; the first message back is the `body`. */
  message?: string | null;
  ignoreTls?: boolean;
  certExpiryDays?: number | number[];
}
export interface GrpcTypeFields extends TypeRequestBase {
  type: 'grpc';
  hostname: string;
  port: number;
  /** Service name asked of `grpc.health.v1.Health/Check` ('' = the server as a whole). */
  grpcService?: string;
  tls?: boolean;
  ignoreTls?: boolean;
  certExpiryDays?: number | number[];
}
export interface DatabaseTypeFields extends TypeRequestBase {
  type: 'postgres' | 'mysql' | 'redis';
  /** A secret: masked in reads, kept when the mask is sent back. */
  connectionString: string;
  /** Default a trivial one (`SELECT 1`, `PING`). */
  query?: string | null;
}

/** A group has no target and is never checked: its status follows its members' (GROUP_RULES). */
export interface GroupTypeFields extends TypeRequestBase {
  type: 'group';
  /** Default `any`: down when any member is down. */
  groupRule?: GroupRule;
  /** Rule `atLeast`: how many members down make the group down (required with it). */
  groupMin?: number;
}

/** A type added after the first ones: its spec's fields, flat in the body (`mqttTopic`, `snmpOid`…). */
export interface AddedTypeFields extends TypeRequestBase {
  type: AddedMonitorType;
  hostname?: string;
  port?: number;
  url?: string;
  [field: string]: unknown;
}

export type MonitorTypeFields =
  | AddedTypeFields
  | HttpTypeFields
  | TcpTypeFields
  | PingTypeFields
  | DnsTypeFields
  | TlsTypeFields
  | PushTypeFields
  | WebsocketTypeFields
  | GrpcTypeFields
  | DatabaseTypeFields
  | GroupTypeFields;

/**
 * Every per-type field a create or update body may carry, flat: what the server validates per `type` (a value of
 * MonitorTypeFields is one of these).
 */
export interface MonitorTypeRequest {
  type?: MonitorType;
  hostname?: string;
  port?: number;
  packetCount?: number;
  dnsRecordType?: DnsRecordType;
  dnsServer?: string | null;
  message?: string | null;
  grpcService?: string;
  tls?: boolean;
  connectionString?: string;
  query?: string | null;
  ignoreTls?: boolean;
  maxRedirects?: number;
  certExpiryDays?: number | number[];
  pushToken?: string;
  groupRule?: GroupRule;
  groupMin?: number;
  assertions?: Assertion[];
}

// ---------------------------------------------------------------------------------------------------------------
// Reads

/** The peer certificate seen by the last TLS-using check. */
export interface CertificateDto {
  subject: string;
  issuer: string;
  expires_at: string;
  days_remaining: number;
}

/** Fields every monitor read carries on top of the spec's (null where the type has none). */
export interface MonitorTypeReadFields {
  type: MonitorType;
  hostname: string | null;
  port: number | null;
  packet_count: number | null;
  dns_record_type: DnsRecordType | null;
  dns_server: string | null;
  /** Push monitors only; never in public payloads (status page, wall). */
  push_token: string | null;
  message: string | null;
  grpc_service: string | null;
  tls: boolean | null;
  /** Masked. */
  connection_string: string | null;
  query: string | null;
  ignore_tls: boolean;
  max_redirects: number | null;
  cert_expiry_days: number[];
  assertions: Assertion[];
  certificate: CertificateDto | null;
  /**
   * Types added after the first ones: their settings by field name as the request sends them (Kuma's names where Kuma
   * has the type, e.g. `mqttTopic`), secrets masked; `{}` for the first types.
   */
  settings: Record<string, unknown>;
}

/** `POST /api/monitors/test`: one check of an unsaved monitor body; nothing stored. */
export interface MonitorTestResponse {
  success: true;
  result: {
    ok: boolean;
    status_code: number | null;
    response_time: number | null;
    error: string | null;
    checked_at: string;
    certificate: CertificateDto | null;
    assertions: AssertionOutcome[];
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Redis monitors' commands

/**
 * Commands a Redis monitor may run: reads with a bounded answer (no KEYS, SCAN, SMEMBERS or HGETALL, whose answers
 * grow with the data; no CONFIG GET or CLIENT LIST, which reveal passwords and clients). A monitor must never write.
 */
export const REDIS_READ_COMMANDS = [
  'PING',
  'ECHO',
  'GET',
  'MGET',
  'STRLEN',
  'EXISTS',
  'TYPE',
  'TTL',
  'PTTL',
  'LLEN',
  'LINDEX',
  'SCARD',
  'SISMEMBER',
  'ZCARD',
  'ZSCORE',
  'ZCOUNT',
  'HGET',
  'HMGET',
  'HLEN',
  'HEXISTS',
  'XLEN',
  'DBSIZE',
  'INFO',
  'TIME',
  'LASTSAVE',
  'ROLE',
] as const;

/** Arguments a Redis monitor's command line may have at most (the command included). */
const REDIS_COMMAND_WORDS_MAX = 32;

/**
 * The words of a command line as redis-cli reads them: separated by blanks, `"…"` (with `\"`, `\\`, `\n`, `\t`, `\r`,
 * `\xHH`) and `'…'` (with `\'`) quoting. Null when a quote is not closed or a quoted word runs into the next one.
 */
export function parseRedisCommand(line: string): string[] | null {
  const words: string[] = [];
  let index = 0;
  while (index < line.length) {
    while (index < line.length && /\s/.test(line[index])) index++;
    if (index >= line.length) break;
    let word = '';
    const quote = line[index] === '"' || line[index] === "'" ? line[index] : null;
    if (quote) {
      index++;
      let closed = false;
      while (index < line.length) {
        const char = line[index];
        if (char === quote) {
          closed = true;
          index++;
          break;
        }
        if (char === '\\' && index + 1 < line.length) {
          const next = line[index + 1];
          if (quote === "'") {
            word += next === "'" ? "'" : `\\${next}`;
            index += 2;
            continue;
          }
          const hex = /^x([0-9a-fA-F]{2})/.exec(line.slice(index + 1, index + 4));
          if (hex) {
            word += String.fromCharCode(parseInt(hex[1], 16));
            index += 4;
            continue;
          }
          word += ({ n: '\n', t: '\t', r: '\r', b: '\b', a: '\x07' } as Record<string, string>)[next] ?? next;
          index += 2;
          continue;
        }
        word += char;
        index++;
      }
      if (!closed || (index < line.length && !/\s/.test(line[index]))) return null;
    } else {
      while (index < line.length && !/\s/.test(line[index])) word += line[index++];
    }
    words.push(word);
  }
  return words;
}

/** Whether a Redis monitor may run this command line (an empty line means the default PING). */
export function isAllowedRedisCommand(line: string): boolean {
  const words = parseRedisCommand(line);
  if (!words || words.length > REDIS_COMMAND_WORDS_MAX) return false;
  if (words.length === 0) return true;
  return (REDIS_READ_COMMANDS as readonly string[]).includes(words[0].toUpperCase());
}
