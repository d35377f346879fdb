import { randomBytes } from 'node:crypto';
import {
  MONITOR_DEFAULTS,
  MONITOR_TYPE_DEFAULTS as D,
  MonitorType,
  defaultTimeoutFor,
  isAddedType,
  isAllowedRedisCommand,
  isProbeType,
  isScheduled,
  SERVER_LOCATION,
  targetOf,
  typeSpec,
  validateAssertions,
  type Assertion,
  type DependencyRef,
  type DnsRecordType,
  type LocationId,
  type MessageCode,
} from '@vigil/proto';
import { badRequest } from '../common/api-exception';
import { hasMaskedPart, isMask, isSecretName, restoreHeaders, restoreUrl, sameDestination } from '../common/secret-values';
import { ConnectionStringError, parseConnectionString, type DatabaseType } from './checkers/database-connection';
import { missingFieldCode, requiredFields, usesField } from './monitor-type-fields.dto';
import { keepsDestination, settingsFrom } from './monitor-settings';
import type { MonitorRow } from './monitor.types';
import type { CreateMonitorDto, UpdateMonitorDto } from './monitors.dto';
import type { MonitorFields } from './monitors.repository';

/** A push token: 24 random bytes, URL-safe (32 characters). Stored as is so the push URL can be shown again. */
export function newPushToken(): string {
  return randomBytes(24).toString('base64url');
}

/** Every field of a new monitor (or of one whose type changes), with the type's defaults; secrets checked. */
export function createFields(input: CreateMonitorDto, now = new Date()): MonitorFields {
  const type = input.type ?? D.type;
  const has = (field: string) => usesField(type, field);
  const usesUrl = hasUrl(type);
  // A new monitor has nothing stored a mask could stand for.
  if (usesUrl) keptSecrets(null, input.url, type === 'http' ? input.headers : undefined);
  const connectionString = has('connectionString') ? keptConnectionString(null, input.connectionString, type) : undefined;
  const address = connectionString ? connectionAddress(connectionString, type) : null;
  const fields: MonitorFields = {
    name: input.name,
    url: '',
    method: type === 'http' ? (input.method ?? MONITOR_DEFAULTS.method) : MONITOR_DEFAULTS.method,
    interval: input.interval ?? MONITOR_DEFAULTS.interval,
    timeout: input.timeout ?? defaultTimeoutFor(input.interval ?? MONITOR_DEFAULTS.interval),
    expectedStatus: input.expectedStatus ?? input.expected_status ?? MONITOR_DEFAULTS.expectedStatus,
    headers: type === 'http' ? (input.headers ?? {}) : {},
    body: type === 'http' ? (input.body ?? null) : null,
    active: input.active ?? true,
    // A status set by hand is meant: no retries stand between it and the monitor's status.
    retries: isScheduled(type) ? (input.retries ?? MONITOR_DEFAULTS.retries) : 0,
    retryInterval: input.retryInterval ?? MONITOR_DEFAULTS.retryInterval,
    type,
    hostname: address?.hostname ?? (has('hostname') ? (input.hostname ?? null) : null),
    port: address?.port ?? (has('port') ? (input.port ?? defaultPort(type)) : null),
    certExpiryDays: has('certExpiryDays') ? thresholds(input.certExpiryDays) : [...D.certExpiryDays],
    assertions: checkedAssertions(type, input.assertions),
    pushToken: type === 'push' ? (input.pushToken ?? newPushToken()) : null,
    pushAwaitedSince: type === 'push' ? now : null,
    // The service sets the saver's role; a user's rules unless it says otherwise.
    outboundScope: 'user',
    parentId: parentOf(input) ?? null,
    dependsOn: dependenciesOf(input) ?? [],
    degradedAfterMs: input.degradedAfterMs ?? null,
    hostAgentId: input.hostAgentId ?? null,
    description: input.description ?? null,
    tags: input.tags ?? [],
    upsideDown: upsideDownOf(type, input.upsideDown, false) ?? false,
    settings: isAddedType(type) ? settingsFrom(type, input, null, false) : ownSettings(type, input, {}, connectionString),
    ...locationFields(type, input, null),
  };
  return { ...fields, url: usesUrl ? (input.url ?? '') : readableTarget(fields) };
}

/**
 * The fields an edit changes. Naming another type rebuilds every per-type field from the body (its required ones
 * must be in it); otherwise only the fields sent, judged against the stored type. Masked secrets are put back from
 * the stored monitor only for the destination they were saved with.
 */
export function updateFields(current: MonitorRow, input: UpdateMonitorDto, now = new Date()): Partial<MonitorFields> {
  const type = input.type ?? current.type;
  const common: Partial<MonitorFields> = {
    name: input.name ?? undefined,
    interval: input.interval,
    timeout: input.timeout,
    active: input.active,
    retries: isScheduled(type) ? input.retries : undefined,
    retryInterval: input.retryInterval,
    parentId: parentOf(input),
    dependsOn: dependenciesOf(input),
    degradedAfterMs: input.degradedAfterMs,
    hostAgentId: input.hostAgentId,
    description: input.description,
    tags: input.tags,
    upsideDown: upsideDownOf(type, input.upsideDown, current.upside_down),
  };
  if (type !== current.type) {
    for (const field of requiredFields(type)) {
      if ((input as unknown as Record<string, unknown>)[field] === undefined) throw badRequest(missingFieldCode(field));
    }
    const rebuilt = createFields({ ...input, name: current.name, type } as CreateMonitorDto, now);
    const { name: _name, active: _active, ...typeFields } = rebuilt;
    return { ...typeFields, ...common };
  }
  const has = (field: string) => usesField(type, field);
  const fields: Partial<MonitorFields> = { ...common };
  if (hasUrl(type)) {
    if (input.url !== undefined) assertUrlScheme(type, input.url);
    const kept = keptSecrets(current, input.url ?? undefined, type === 'http' ? input.headers : undefined);
    Object.assign(fields, { url: kept.url, headers: type === 'http' ? kept.headers : undefined });
  }
  if (type === 'http') {
    Object.assign(fields, { method: input.method, expectedStatus: input.expectedStatus ?? input.expected_status, body: input.body });
  }
  if (has('connectionString') && input.connectionString !== undefined) {
    const connectionString = keptConnectionString(current, input.connectionString, type);
    Object.assign(fields, connectionAddress(connectionString, type));
    fields.settings = ownSettings(type, input, current.settings ?? {}, connectionString);
  }
  if (has('hostname')) fields.hostname = input.hostname;
  if (has('port')) fields.port = input.port;
  if (has('pushToken')) fields.pushToken = input.pushToken;
  if (has('certExpiryDays') && input.certExpiryDays !== undefined) fields.certExpiryDays = thresholds(input.certExpiryDays);
  if (input.assertions !== undefined) fields.assertions = checkedAssertions(type, input.assertions);
  if (!isAddedType(type) && sendsOwnSettings(type, input)) fields.settings ??= ownSettings(type, input, current.settings ?? {});
  if (input.locations !== undefined || input.quorum !== undefined || input.quorumMin !== undefined) {
    Object.assign(fields, locationFields(type, input, current));
  }
  // A resumed push monitor waits a whole interval for its first push before it is late.
  if (type === 'push' && input.active === true && !current.active) fields.pushAwaitedSince = now;
  if (isAddedType(type)) {
    const destination = { hostname: fields.hostname, port: fields.port, url: fields.url };
    fields.settings = settingsFrom(type, input, current, keepsDestination(current, destination));
  }
  const targetMoved = [fields.hostname, fields.port, fields.settings].some((value) => value !== undefined);
  if (!hasUrl(type) && targetMoved) {
    const merged = {
      type,
      hostname: fields.hostname ?? current.hostname,
      port: fields.port ?? current.port,
      settings: fields.settings ?? current.settings,
    };
    fields.url = readableTarget(merged);
  }
  return fields;
}

/** The settings a changed edit must re-check at once (the target, what is judged, and the rhythm). */
export const TARGET_FIELDS: ReadonlyArray<keyof MonitorFields> = [
  'type',
  'url',
  'method',
  'headers',
  'body',
  'expectedStatus',
  'timeout',
  'interval',
  'hostname',
  'port',
  'assertions',
  'settings',
  'upsideDown',
];

/**
 * Upside-down mode inverts a check's verdict: a group or manual monitor has none (its status is derived or set by
 * hand), so asking for it there is refused, and a monitor turned into one leaves the mode.
 */
function upsideDownOf(type: MonitorType, wanted: boolean | undefined, stored: boolean | undefined): boolean | undefined {
  if (wanted && !isScheduled(type)) throw badRequest('monitors.upsideDownUnscheduled');
  return wanted === undefined && stored && !isScheduled(type) ? false : wanted;
}

/** The dependencies as sent (`dependsOn` wins over `depends_on`); undefined when neither is. */
function dependenciesOf(input: CreateMonitorDto | UpdateMonitorDto): DependencyRef[] | undefined {
  return input.dependsOn ?? input.depends_on;
}

/** The group to join as sent (`parentId` wins over `parent_id`); undefined when neither is. */
function parentOf(input: CreateMonitorDto | UpdateMonitorDto): number | null | undefined {
  return input.parentId !== undefined ? input.parentId : input.parent_id;
}

/**
 * A first type's own settings (its spec's `own` fields): the body's over the stored ones, a field sent as null back
 * to its default (or gone), with the rules the request DTO cannot see: the connection string as kept (masks put
 * back), a Redis command the checker allows, a group's count that `atLeast` needs.
 */
function ownSettings(
  type: MonitorType,
  input: CreateMonitorDto | UpdateMonitorDto,
  stored: Record<string, unknown>,
  connectionString?: string,
): Record<string, unknown> {
  const body = input as unknown as Record<string, unknown>;
  const settings: Record<string, unknown> = {};
  for (const field of typeSpec(type).fields) {
    if (field.column !== 'own') continue;
    const value = (body[field.name] !== undefined ? body[field.name] : stored[field.name]) ?? field.default;
    if (value !== undefined && value !== null) settings[field.name] = value;
  }
  if (connectionString !== undefined) settings.connectionString = connectionString;
  if (typeof settings.query === 'string') checkedQuery(type, settings.query);
  if (type === 'group') {
    if (settings.groupRule === 'atLeast' && settings.groupMin === undefined) throw badRequest('monitors.groupMinInvalid');
    if (settings.groupRule !== 'atLeast') delete settings.groupMin;
  }
  return settings;
}

/** Whether an edit sends any of its type's own settings. */
const sendsOwnSettings = (type: MonitorType, input: UpdateMonitorDto) =>
  typeSpec(type).fields.some((field) => field.column === 'own' && (input as unknown as Record<string, unknown>)[field.name] !== undefined);

/**
 * Where it is checked from and its quorum, laid over what is stored: agents run only the network and database types,
 * and `atLeast` needs a count no larger than the locations. Whether the agents exist and who may choose them is the
 * service's to judge.
 */
export function locationFields(
  type: MonitorType,
  input: Pick<CreateMonitorDto, 'locations' | 'quorum' | 'quorumMin'>,
  current: Pick<MonitorRow, 'locations' | 'quorum' | 'quorum_min'> | null,
): Pick<MonitorFields, 'locations' | 'quorum' | 'quorumMin'> {
  const locations = (input.locations ?? current?.locations ?? [SERVER_LOCATION]) as LocationId[];
  if (locations.some((location) => location !== SERVER_LOCATION) && !isProbeType(type))
    throw badRequest('monitors.locationTypeUnsupported');
  const quorum = input.quorum ?? current?.quorum ?? 'any';
  const quorumMin = input.quorumMin !== undefined ? input.quorumMin : (current?.quorum_min ?? null);
  if (quorum === 'atLeast' && (quorumMin === null || quorumMin > locations.length)) throw badRequest('monitors.quorumMinInvalid');
  return { locations, quorum, quorumMin: quorum === 'atLeast' ? quorumMin : null };
}

function readableTarget(fields: Pick<MonitorFields, 'type' | 'hostname' | 'port' | 'settings'>): string {
  return targetOf({
    type: fields.type,
    hostname: fields.hostname,
    port: fields.port,
    dns_record_type: (fields.settings.dnsRecordType as DnsRecordType | undefined) ?? null,
    settings: fields.settings,
  });
}

/** Whether the type's target is a URL it is saved with (http, websocket, browser…), from its spec. */
const hasUrl = (type: MonitorType): boolean => typeSpec(type).fields.some((field) => field.column === 'url');

/** The port a type connects to when none is sent (tls: 443, mqtt: 1883…), from its spec; null: none. */
function defaultPort(type: MonitorType): number | null {
  const port = typeSpec(type).fields.find((field) => field.column === 'port')?.default;
  return typeof port === 'number' ? port : null;
}

function checkedAssertions(type: MonitorType, value: unknown): Assertion[] {
  const checked = validateAssertions(type, value);
  if (!checked.ok) throw badRequest(checked.code);
  return checked.assertions;
}

/** A Redis command the checker would refuse at every check is refused on save (an edit naming no type lands here). */
function checkedQuery(type: MonitorType, query: string | null): string | null {
  if (type === 'redis' && query !== null && !isAllowedRedisCommand(query)) throw badRequest('monitors.redisCommandNotAllowed');
  return query;
}

/** Thresholds as stored: distinct, largest first (validated by the DTO). */
function thresholds(value: number | number[] | undefined): number[] {
  if (value === undefined) return [...D.certExpiryDays];
  return [...new Set(Array.isArray(value) ? value : [value])].sort((a, b) => b - a);
}

function assertUrlScheme(type: MonitorType, url: string): void {
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(url)?.[1].toLowerCase();
  const allowed = type === 'websocket' ? ['ws', 'wss'] : ['http', 'https'];
  if (!scheme || !allowed.includes(scheme)) throw badRequest(type === 'websocket' ? 'monitors.websocketUrlInvalid' : 'monitors.urlInvalid');
}

/**
 * The connection string to store: the one sent, or the stored one when the mask is sent back. Only for the same
 * destination (scheme, host, port, database): a saved credential is never sent to another server.
 */
export function keptConnectionString(
  current: Pick<MonitorRow, 'settings' | 'type'> | null,
  incoming: string | undefined,
  type: MonitorType,
): string {
  const reenter: MessageCode = 'monitors.connectionStringReenter';
  if (incoming === undefined || incoming === '') throw badRequest('monitors.connectionStringRequired');
  const saved = current && current.type === type ? current.settings?.connectionString : null;
  const stored = typeof saved === 'string' ? saved : null;
  if (isMask(incoming.trim())) {
    if (!stored) throw badRequest(reenter);
    return stored;
  }
  const kept = hasMaskedPart(incoming) ? restoreUrl(incoming, stored) : incoming;
  if (kept === null) throw badRequest(reenter);
  connectionAddress(kept, type);
  return kept;
}

/**
 * Host and port of a connection string (never its credentials), for the readable target. Read by the checkers' own
 * parser, so a string every check would refuse is refused on save.
 */
export function connectionAddress(connectionString: string, type: MonitorType): { hostname: string; port: number | null } {
  try {
    const endpoint = parseConnectionString(type as DatabaseType, connectionString);
    return { hostname: endpoint.host, port: endpoint.port };
  } catch (error) {
    if (!(error instanceof ConnectionStringError)) throw error;
    throw badRequest(error.reason === 'setting' ? 'monitors.connectionStringUnusable' : 'monitors.connectionStringInvalid');
  }
}

/**
 * The URL and headers of an edit with masked credentials put back from the stored monitor. A stored credential is
 * only sent where it was saved for: with another destination (scheme, host, port, path or plain query; see
 * urlDestination) every masked value must be typed again, refused naming the field.
 */
export function keptSecrets(
  current: Pick<MonitorRow, 'url' | 'headers'> | null,
  url: string | undefined,
  headers: Record<string, string> | undefined,
): { url: string | undefined; headers: Record<string, string> | undefined } {
  const targetUrl = url ?? current?.url;
  let keptUrl = url;
  if (url !== undefined && hasMaskedPart(url)) {
    keptUrl = restoreUrl(url, current?.url ?? null) ?? undefined;
    if (keptUrl === undefined) throw badRequest('monitors.urlCredentialsReenter');
  }
  const sameTarget = current !== null && targetUrl !== undefined && sameDestination(targetUrl, current.url);
  // An edit that leaves the headers out keeps them: stored credentials must not follow a new destination that way.
  if (
    headers === undefined &&
    current &&
    !sameTarget &&
    Object.entries(current.headers ?? {}).some(([name, value]) => value !== '' && isSecretName(name))
  ) {
    throw badRequest('monitors.headersReenter');
  }
  if (!headers || !Object.values(headers).some((value) => isMask(value.trim()))) return { url: keptUrl, headers };
  const restored = restoreHeaders(headers, current?.headers ?? {}, sameTarget);
  if (!restored.ok) throw badRequest('monitors.headersReenter');
  return { url: keptUrl, headers: restored.headers as Record<string, string> };
}
