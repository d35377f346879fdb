/**
 * Kuma monitors → the document's monitors: one entry per Kuma type Vigil has (docs/decisions.md, "Import from
 * Uptime Kuma"), the settings every type shares, and why a monitor is left out when it cannot be imported faithfully.
 */
import {
  isScheduled,
  MONITOR_LIMITS as L,
  MONITOR_TYPE_LIMITS as TL,
  normalizeTag,
  type Assertion,
  type ConfigMonitor,
  type MonitorType,
} from '@vigil/proto';
import type { KumaRow } from './kuma-file';
import { bool, clamp, hostAndPort, int, json, kumaKey, text, type KumaSkipReason } from './kuma-values';

type Fields = Partial<ConfigMonitor>;
/** Why a monitor cannot come, with what (for the report). A class: the monitor's fields are an open record. */
export class Skip {
  constructor(
    readonly reason: KumaSkipReason,
    readonly detail: string,
  ) {}
}
/** A type's own fields, or why the monitor cannot come. */
type TypeMapping = (row: KumaRow, notes: string[]) => Fields | Skip;

const JSON_OPERATORS: Record<string, Assertion['operator']> = {
  '==': 'eq',
  '!=': 'ne',
  '<': 'lt',
  '<=': 'lte',
  '>': 'gt',
  '>=': 'gte',
  contains: 'contains',
};
/** A plain JSONata property path (`status`, `$.data.items[0].name`) has a JSONPath twin; anything else is refused. */
const PLAIN_PATH = /^(?:\$\.?)?([A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*|\[\d+\])*)$/;

export function jsonPathOf(expression: string): string | null {
  const match = PLAIN_PATH.exec(expression.trim());
  return match ? `$.${match[1]}` : null;
}

/**
 * Kuma's accepted codes (`["200-299", "301"]`) as our `expectedStatus` (a class 2–5 or one code) plus, for a list
 * inside one class, a `matches` assertion. A list across classes has no equivalent: null.
 */
export function statusRule(codes: string[]): { expectedStatus: number; assertions: Assertion[] } | null {
  const list = codes.length === 0 ? ['200-299'] : codes;
  const parts = list.map((code) => /^(\d{3})(?:-(\d{3}))?$/.exec(code.trim()));
  if (parts.some((part) => !part)) return null;
  const ranges = parts.map((part) => [Number(part![1]), Number(part![2] ?? part![1])] as const);
  if (ranges.length === 1 && ranges[0][0] === ranges[0][1]) return { expectedStatus: ranges[0][0], assertions: [] };
  const classes = new Set(ranges.flatMap(([from, to]) => [Math.floor(from / 100), Math.floor(to / 100)]));
  if (classes.size !== 1) return null;
  const [klass] = classes;
  if (klass < 2 || klass > 5) return null;
  const whole = ranges.some(([from, to]) => from === klass * 100 && to === klass * 100 + 99);
  if (whole) return { expectedStatus: klass, assertions: [] };
  const alternatives = ranges.flatMap(([from, to]) => Array.from({ length: to - from + 1 }, (_, i) => String(from + i)));
  return { expectedStatus: klass, assertions: [{ source: 'status', operator: 'matches', value: `^(${alternatives.join('|')})$` }] };
}

function httpFields(row: KumaRow, notes: string[]): Fields | Skip {
  const codes = json<string[]>(row.accepted_statuscodes_json, []);
  // A list across classes has no twin: the first entry's rule is kept (redirects are followed, so 3xx rarely matters).
  let rule = statusRule(codes);
  if (!rule && codes.length > 1) {
    rule = statusRule(codes.slice(0, 1));
    if (rule) notes.push(`accepted status codes ${codes.join(', ')} → ${codes[0]}`);
  }
  if (!rule) return new Skip('unsupportedValue', `accepted status codes ${codes.join(', ')}`);
  const headers = { ...json<Record<string, unknown> | null>(row.headers, null) };
  const auth = text(row.auth_method) ?? (text(row.basic_auth_user) ? 'basic' : undefined);
  if (auth === 'basic') {
    headers.Authorization = `Basic ${Buffer.from(`${text(row.basic_auth_user) ?? ''}:${text(row.basic_auth_pass) ?? ''}`).toString('base64')}`;
  } else if (auth === 'bearer' && text(row.bearer_token)) {
    headers.Authorization = `Bearer ${text(row.bearer_token)}`;
  } else if (auth && auth !== 'none') {
    return new Skip('unsupportedValue', `authentication ${auth}`);
  }
  const method = (text(row.method) ?? 'GET').toUpperCase();
  return {
    url: text(row.url),
    method: method as ConfigMonitor['method'],
    ...(Object.keys(headers).length > 0 ? { headers: Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, String(v)])) } : {}),
    ...(text(row.body) ? { body: String(row.body) } : {}),
    ignoreTls: bool(row.ignore_tls),
    maxRedirects: clamp(int(row.maxredirects) ?? 10, 0, TL.maxRedirectsMax),
    expectedStatus: rule.expectedStatus,
    assertions: rule.assertions,
  };
}

const withAssertions = (fields: Fields | Skip, more: Assertion[]) =>
  fields instanceof Skip ? fields : { ...fields, assertions: [...(fields.assertions ?? []), ...more] };

function jsonQuery(row: KumaRow): Assertion | Skip {
  const path = jsonPathOf(text(row.json_path) ?? '');
  if (!path) return new Skip('unsupportedValue', `JSONata expression ${text(row.json_path) ?? ''}`);
  const operator = JSON_OPERATORS[text(row.json_path_operator) ?? '=='];
  if (!operator) return new Skip('unsupportedValue', `operator ${String(row.json_path_operator)}`);
  return { source: 'jsonPath', path, operator, value: text(row.expected_value) ?? '' };
}

const keyword = (row: KumaRow): Assertion => ({
  source: 'body',
  operator: bool(row.invert_keyword) ? 'notContains' : 'contains',
  value: String(row.keyword ?? ''),
});
const host = (row: KumaRow) => ({ hostname: text(row.hostname), ...(int(row.port) ? { port: int(row.port) } : {}) });
const database = (row: KumaRow) => ({
  connectionString: text(row.database_connection_string),
  ...(text(row.database_query) ? { query: text(row.database_query) } : {}),
});

/** Kuma types Vigil has, keyed by Kuma's name; the value is our type and its fields. */
export const KUMA_TYPES: Record<string, { type: string; fields: TypeMapping }> = {
  http: { type: 'http', fields: httpFields },
  keyword: { type: 'http', fields: (row, notes) => withAssertions(httpFields(row, notes), [keyword(row)]) },
  'json-query': {
    type: 'http',
    fields: (row, notes) => {
      const assertion = jsonQuery(row);
      return assertion instanceof Skip ? assertion : withAssertions(httpFields(row, notes), [assertion]);
    },
  },
  push: { type: 'push', fields: (row) => ({ pushToken: text(row.push_token) }) },
  port: { type: 'tcp', fields: host },
  ping: {
    type: 'ping',
    fields: (row) => ({ hostname: text(row.hostname), packetCount: clamp(int(row.ping_count) ?? 1, 1, TL.packetCountMax) }),
  },
  dns: {
    type: 'dns',
    fields: (row) => ({
      hostname: text(row.hostname),
      dnsRecordType: (text(row.dns_resolve_type) ?? 'A') as ConfigMonitor['dnsRecordType'],
      ...(text(row.dns_resolve_server) ? { dnsServer: text(row.dns_resolve_server) } : {}),
    }),
  },
  'grpc-keyword': {
    type: 'grpc',
    fields: (row) => ({
      ...hostAndPort(text(row.grpc_url) ?? ''),
      ...(text(row.grpc_service_name) ? { grpcService: text(row.grpc_service_name) } : {}),
      tls: bool(row.grpc_enable_tls),
      assertions: text(row.keyword) ? [keyword(row)] : [],
    }),
  },
  postgres: { type: 'postgres', fields: database },
  mysql: { type: 'mysql', fields: database },
  redis: { type: 'redis', fields: database },
  mqtt: {
    type: 'mqtt',
    fields: (row) => {
      const scheme = /^([a-z]+):\/\//i.exec(text(row.hostname) ?? '')?.[1]?.toLowerCase() ?? 'mqtt';
      const checkType = text(row.mqtt_check_type) ?? 'keyword';
      const query = checkType === 'json-query' ? jsonQuery(row) : null;
      if (query instanceof Skip) return query;
      return {
        mqttProtocol: scheme,
        hostname: (text(row.hostname) ?? '').replace(/^[a-z]+:\/\//i, ''),
        ...(int(row.port) ? { port: int(row.port) } : {}),
        mqttTopic: text(row.mqtt_topic),
        ...(text(row.mqtt_username) ? { mqttUsername: text(row.mqtt_username) } : {}),
        ...(text(row.mqtt_password) ? { mqttPassword: text(row.mqtt_password) } : {}),
        ...(text(row.mqtt_websocket_path) ? { mqttWebsocketPath: text(row.mqtt_websocket_path) } : {}),
        mqttCheckType: checkType,
        ...(text(row.mqtt_success_message) ? { mqttSuccessMessage: text(row.mqtt_success_message) } : {}),
        ...(query ? { assertions: [query] } : {}),
      };
    },
  },
  radius: {
    type: 'radius',
    fields: (row) => ({
      ...host(row),
      radiusUsername: text(row.radius_username),
      radiusPassword: text(row.radius_password),
      radiusSecret: text(row.radius_secret),
      ...(text(row.radius_called_station_id) ? { radiusCalledStationId: text(row.radius_called_station_id) } : {}),
      ...(text(row.radius_calling_station_id) ? { radiusCallingStationId: text(row.radius_calling_station_id) } : {}),
    }),
  },
  smtp: { type: 'smtp', fields: (row) => ({ ...host(row), smtpSecurity: text(row.smtp_security) ?? 'starttls' }) },
  ntp: {
    type: 'ntp',
    fields: (row) => ({
      ...host(row),
      assertions: [
        { source: 'stratum', operator: 'lte', value: int(row.ntp_stratum_threshold) ?? 5 },
        { source: 'offset', operator: 'lte', value: int(row.ntp_time_offset_threshold) ?? 1000 },
        { source: 'rootDispersion', operator: 'lte', value: int(row.ntp_root_dispersion_threshold) ?? 500 },
      ],
    }),
  },
  snmp: {
    type: 'snmp',
    fields: (row) => {
      const operator = JSON_OPERATORS[text(row.json_path_operator) ?? '=='];
      return {
        ...host(row),
        snmpVersion: text(row.snmp_version) ?? '2c',
        snmpOid: text(row.snmp_oid),
        ...(text(row.radius_password) ? { radiusPassword: text(row.radius_password) } : {}),
        ...(text(row.snmp_v3_username) ? { snmpV3Username: text(row.snmp_v3_username) } : {}),
        assertions: text(row.expected_value) && operator ? [{ source: 'value', operator, value: String(row.expected_value) }] : [],
      };
    },
  },
  'real-browser': { type: 'browser', fields: (row) => ({ url: text(row.url) }) },
  manual: { type: 'manual', fields: () => ({}) },
  group: { type: 'group', fields: () => ({}) },
  docker: { type: 'container', fields: (row) => new Skip('needsAgent', `container ${text(row.docker_container) ?? ''}`) },
};

export interface MappedMonitor {
  monitor?: ConfigMonitor;
  skip?: { reason: KumaSkipReason; detail: string };
  /** Settings changed on the way (clamped to our limits). */
  notes: string[];
}

/** Every setting the types share, clamped to our limits (noted when it moved). */
function shared(row: KumaRow, notes: string[]) {
  const wanted = int(row.interval) ?? 60;
  const interval = clamp(wanted, L.intervalMin, L.intervalMax);
  if (interval !== wanted) notes.push(`interval ${wanted} s → ${interval} s`);
  const retries = clamp(int(row.maxretries) ?? 0, 0, L.retriesMax);
  if (retries !== (int(row.maxretries) ?? 0)) notes.push(`retries ${String(row.maxretries)} → ${retries}`);
  const retryInterval = clamp(int(row.retry_interval) || interval, L.retryIntervalMin, L.retryIntervalMax);
  const seconds = Number(row.timeout);
  // Kuma's 0 means its default (80 % of the interval), as ours when none is given.
  const timeout = seconds > 0 ? clamp(Math.round(seconds), L.timeoutMin, Math.min(L.timeoutMax, interval - 1)) : undefined;
  return { interval, retries, retryInterval, ...(timeout ? { timeout } : {}) };
}

export function mapMonitor(row: KumaRow): MappedMonitor {
  const notes: string[] = [];
  const kind = KUMA_TYPES[String(row.type)];
  if (!kind) return { skip: { reason: 'unsupportedType', detail: String(row.type) }, notes };
  const fields = kind.fields(row, notes);
  if (fields instanceof Skip) return { skip: { reason: fields.reason, detail: fields.detail }, notes };
  const name = (text(row.name) ?? `Kuma ${String(row.id)}`).slice(0, L.nameMax);
  const monitor = {
    key: kumaKey('monitor', row),
    name,
    type: kind.type,
    active: bool(row.active),
    ...(kind.type === 'group' ? {} : shared(row, notes)),
    ...fields,
  } as ConfigMonitor;
  // An export leaves empty lists out; so does the import, or a re-run would see a change.
  if (monitor.assertions?.length === 0) delete monitor.assertions;
  const description = text(row.description)?.trim();
  if (description) monitor.description = description.slice(0, L.descriptionMax);
  if (description && description.length > L.descriptionMax) notes.push(`description cut to ${L.descriptionMax} characters`);
  // Kuma inverts any monitor's beat, a group's derived one too; ours invert checks, and a group or manual monitor has none.
  if (bool(row.upside_down) && isScheduled(kind.type as MonitorType)) monitor.upsideDown = true;
  else if (bool(row.upside_down)) notes.push(`upside down not kept: a ${kind.type} monitor is not checked`);
  return { monitor, notes };
}

/**
 * Kuma's tags (a tag's name, with the monitor's value when it has one) as ours: `name:value`, normalised; one
 * longer than our limit is cut, one with no name left is dropped, past the limit they are dropped (each noted).
 */
export function kumaTags(tags: Array<Record<string, unknown>>, notes: string[]): string[] {
  const list: string[] = [];
  for (const { name, value } of tags) {
    const whole = text(value) ? `${String(name)}:${String(value)}` : String(name ?? '');
    const tag =
      normalizeTag(whole) ??
      normalizeTag(
        whole
          .replace(/\p{Cc}/gu, ' ')
          .trim()
          .replace(/\s+/g, ' ')
          .slice(0, L.tagMax),
      );
    if (tag === null) notes.push(`tag ${JSON.stringify(whole)} not imported`);
    else if (tag !== whole.trim()) notes.push(`tag ${JSON.stringify(whole)} → ${JSON.stringify(tag)}`);
    if (tag !== null && !list.includes(tag)) list.push(tag);
  }
  if (list.length > L.tagsMax) notes.push(`tags after the first ${L.tagsMax} not imported: ${list.slice(L.tagsMax).join(', ')}`);
  return list.slice(0, L.tagsMax);
}
