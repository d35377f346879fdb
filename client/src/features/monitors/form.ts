import {
  type DependencyRef,
  DEPENDENCIES_MAX,
  type HttpMethod,
  type MessageCode,
  isHttpUrl,
  isProbeType,
  type LocationId,
  LOCATIONS_MAX,
  METHODS_WITH_BODY,
  MONITOR_DEFAULTS,
  MONITOR_LIMITS,
  MONITOR_TYPE_LIMITS,
  type MonitorDto,
  isScheduled,
  normalizeTags,
  type MonitorType,
  type QuorumRule,
  SERVER_LOCATION,
} from '@vigil/proto';
import type { MonitorBody } from './api';
import { minutesToSeconds, parseWholeNumber, secondsToMinutes } from './format';
import { type HeaderRow, headersToRows, invalidHeaderRow, rowsToHeaders } from './headers';
import { assertionRowError, type AssertionRow, assertionRowsFrom, rowsForType, toAssertions } from './types/assertions';
import {
  defaultTypeFieldValues,
  type TypeField,
  type TypeFieldErrorKey,
  typeFieldsForType,
  typeFieldValuesFrom,
  toTypeFields,
  type TypeFieldValues,
  URL_TYPES,
  validateTypeFields,
} from './types/fields';
import { columnField } from './types/settings';

/** The form's fields as typed: numbers stay text until submit, so "abc" can be shown and then rejected. */
export interface MonitorFormValues extends TypeFieldValues {
  type: MonitorType;
  name: string;
  url: string;
  method: HttpMethod;
  /** In `intervalUnit`. */
  interval: string;
  /** Minutes by default; seconds for intervals under a minute or not whole minutes. */
  intervalUnit: IntervalUnit;
  /** Seconds. */
  timeout: string;
  expectedStatus: number;
  headers: HeaderRow[];
  body: string;
  retries: string;
  /** Seconds. */
  retryInterval: string;
  assertions: AssertionRow[];
  dependsOn: DependencyRef[];
  /** Milliseconds; empty: never degraded. */
  degradedAfterMs: string;
  /** The group monitor it belongs to; undefined: none and untouched (left out of the body), null: left on purpose. */
  parentId?: number | null;
  /** The agent of the host it runs on; undefined: none and untouched (left out of the body), null: cleared. */
  hostAgentId?: number | null;
  /** Where a PROBE_TYPES monitor is checked from: the server and chosen agents. */
  locations: LocationId[];
  quorum: QuorumRule;
  /** With rule `atLeast`: failing locations that make it down, as typed. */
  quorumMin: string;
  /** Plain text shown on the detail page. */
  description: string;
  /** Each `name` or `name:value`, as entered (normalised on submit, as the server stores them). */
  tags: string[];
  /** Checked types only: each check's verdict inverted. */
  upsideDown: boolean;
}

/** Form fields with an error; an assertion row's error sits under `assertion-<index>`. */
export type MonitorFormField =
  | 'name'
  | 'url'
  | 'interval'
  | 'timeout'
  | 'headers'
  | 'body'
  | 'retries'
  | 'retryInterval'
  | 'assertions'
  | 'dependsOn'
  | 'degradedAfterMs'
  | 'locations'
  | 'quorumMin'
  | 'description'
  | 'tags'
  | TypeField
  | `assertion-${number}`;

export type MonitorFormErrorKey =
  | 'nameRequired'
  | 'nameTooLong'
  | 'urlRequired'
  | 'urlInvalid'
  | 'wsUrlInvalid'
  | 'assertionsTooMany'
  | 'intervalMin'
  | 'intervalMax'
  | 'timeoutMin'
  | 'timeoutMax'
  | 'timeoutBelowInterval'
  | 'headersInvalid'
  | 'bodyTooLarge'
  | 'retries'
  | 'retryInterval'
  | 'degradedAfter'
  | 'dependsOnTooMany'
  | 'locationsRequired'
  | 'locationsTooMany'
  | 'quorumMin'
  | 'descriptionTooLong'
  | 'tagsInvalid'
  | TypeFieldErrorKey;

/** A field's error: a form message (`monitor.form.errors.<key>`), or for an assertion row the shared rule's code (`server.<code>`). */
export type MonitorFormErrors = Partial<Record<MonitorFormField, MonitorFormErrorKey | MessageCode>>;

/** Whether an error is a server message code (they are namespaced, `monitors.…`) rather than a form key. */
export function isMessageCode(error: MonitorFormErrorKey | MessageCode): error is MessageCode {
  return error.includes('.');
}

export const INTERVAL_MAX_MINUTES = MONITOR_LIMITS.intervalMax / 60;

export const INTERVAL_UNITS = ['minutes', 'seconds'] as const;
export type IntervalUnit = (typeof INTERVAL_UNITS)[number];

/** The interval field's value in seconds (a non-number is 0, so validation rejects it). */
export function intervalSeconds(values: Pick<MonitorFormValues, 'interval' | 'intervalUnit'>): number {
  const amount = parseWholeNumber(values.interval);
  return values.intervalUnit === 'minutes' ? minutesToSeconds(amount) : amount;
}

/** This server's bounds the form applies (GET /api/monitors/limits); proto's until they are read. */
export interface MonitorFormLimits {
  intervalMin: number;
}
export const DEFAULT_FORM_LIMITS: MonitorFormLimits = { intervalMin: MONITOR_LIMITS.intervalMin };

/** Whether the method sends a body, so the body field shows (spec section 2). */
export function methodHasBody(method: HttpMethod): boolean {
  return METHODS_WITH_BODY.includes(method);
}

/** A new monitor's fields: HTTP, GET, 1 minute, 30 s, 200 (spec section 9), and the server's retry defaults. */
export function defaultFormValues(): MonitorFormValues {
  return {
    ...defaultTypeFieldValues(),
    type: 'http',
    name: '',
    url: '',
    method: MONITOR_DEFAULTS.method,
    interval: String(secondsToMinutes(MONITOR_DEFAULTS.interval)),
    intervalUnit: 'minutes',
    timeout: String(MONITOR_DEFAULTS.timeout),
    expectedStatus: MONITOR_DEFAULTS.expectedStatus,
    headers: headersToRows({}),
    body: '',
    retries: String(MONITOR_DEFAULTS.retries),
    retryInterval: String(MONITOR_DEFAULTS.retryInterval),
    assertions: [],
    dependsOn: [],
    degradedAfterMs: '',
    parentId: undefined,
    hostAgentId: undefined,
    locations: [SERVER_LOCATION],
    quorum: 'any',
    quorumMin: '',
    description: '',
    tags: [],
    upsideDown: false,
  };
}

/** A stored monitor's fields, its interval in minutes when it is whole minutes, else in seconds. */
export function formValuesFromMonitor(monitor: MonitorDto): MonitorFormValues {
  const { type } = monitor;
  return {
    ...typeFieldValuesFrom(monitor),
    type,
    name: monitor.name,
    // Types without a URL read a target string there (`tcp://db:5432`), which is no field of theirs.
    url: URL_TYPES.includes(type) ? monitor.url : '',
    method: monitor.method,
    interval: String(monitor.interval % 60 === 0 ? secondsToMinutes(monitor.interval) : monitor.interval),
    intervalUnit: monitor.interval % 60 === 0 ? 'minutes' : 'seconds',
    timeout: String(monitor.timeout),
    expectedStatus: monitor.expected_status,
    headers: headersToRows(monitor.headers),
    body: monitor.body ?? '',
    retries: String(monitor.retries),
    retryInterval: String(monitor.retry_interval),
    assertions: assertionRowsFrom(monitor.assertions),
    dependsOn: monitor.depends_on ?? [],
    degradedAfterMs: monitor.degraded_after_ms === null || monitor.degraded_after_ms === undefined ? '' : String(monitor.degraded_after_ms),
    parentId: monitor.parent_id ?? undefined,
    hostAgentId: monitor.host_agent_id ?? undefined,
    locations: monitor.locations ?? [SERVER_LOCATION],
    quorum: monitor.quorum ?? 'any',
    quorumMin: monitor.quorum_min === null || monitor.quorum_min === undefined ? '' : String(monitor.quorum_min),
    description: monitor.description ?? '',
    tags: monitor.tags ?? [],
    upsideDown: monitor.upside_down ?? false,
  };
}

/** The form after an explicit change of type: the type's defaults filled in, assertions it cannot evaluate dropped. */
export function withType(values: MonitorFormValues, type: MonitorType): MonitorFormValues {
  return { ...values, ...typeFieldsForType(type, values, values.type), type, assertions: rowsForType(type, values.assertions) };
}

/** A `ws:` or `wss:` URL with a host, as WebSocket monitors need. */
export function isWebSocketUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'ws:' || url.protocol === 'wss:') && url.hostname !== '';
  } catch {
    return false;
  }
}

/** Retries are a count where 0 is meaningful, so unlike the interval a non-number is an error, not 0. */
function strictWhole(text: string): number | null {
  return /^\s*\d+\s*$/.test(text) ? Number(text.trim()) : null;
}

/** The degraded threshold as typed: null when empty (never degraded), NaN when not a whole number. */
function degradedAfterMs(text: string): number | null {
  if (text.trim() === '') return null;
  return strictWhole(text) ?? Number.NaN;
}

/** The same rules the server applies (spec section 5), checked first so a bad form sends nothing. */
export function validateMonitorForm(values: MonitorFormValues, limits: MonitorFormLimits = DEFAULT_FORM_LIMITS): MonitorFormErrors {
  const errors: MonitorFormErrors = {};
  const name = values.name.trim();
  if (!name) errors.name = 'nameRequired';
  else if (name.length > MONITOR_LIMITS.nameMax) errors.name = 'nameTooLong';

  const url = values.url.trim();
  if (values.type === 'http' || values.type === 'websocket') {
    const valid = values.type === 'http' ? isHttpUrl(url) : isWebSocketUrl(url);
    if (!url) errors.url = 'urlRequired';
    else if (url.length > MONITOR_LIMITS.urlMax || !valid) errors.url = values.type === 'http' ? 'urlInvalid' : 'wsUrlInvalid';
  } else if (URL_TYPES.includes(values.type)) {
    // An added type's URL: an http(s) one, as the server's rule for its column has it; required only if its spec says so.
    if (!url && columnField(values.type, 'url')?.required) errors.url = 'urlRequired';
    else if (url && (url.length > MONITOR_LIMITS.urlMax || !isHttpUrl(url))) errors.url = 'urlInvalid';
  }
  Object.assign(errors, validateTypeFields(values.type, values));

  const interval = intervalSeconds(values);
  if (interval < limits.intervalMin) errors.interval = 'intervalMin';
  else if (interval > MONITOR_LIMITS.intervalMax) errors.interval = 'intervalMax';

  const timeout = parseWholeNumber(values.timeout);
  if (timeout < MONITOR_LIMITS.timeoutMin) errors.timeout = 'timeoutMin';
  else if (timeout > MONITOR_LIMITS.timeoutMax) errors.timeout = 'timeoutMax';
  else if (!errors.interval && timeout >= interval) errors.timeout = 'timeoutBelowInterval';

  if (values.type === 'http') {
    if (invalidHeaderRow(values.headers) >= 0) errors.headers = 'headersInvalid';
    if (methodHasBody(values.method) && new TextEncoder().encode(values.body).length > MONITOR_LIMITS.bodyMax) errors.body = 'bodyTooLarge';
  }
  if (values.assertions.length > MONITOR_TYPE_LIMITS.assertionsMax) errors.assertions = 'assertionsTooMany';
  values.assertions.forEach((row, index) => {
    const error = assertionRowError(values.type, row);
    if (error) errors[`assertion-${index}`] = error;
  });

  const retries = strictWhole(values.retries);
  if (retries === null || retries < MONITOR_LIMITS.retriesMin || retries > MONITOR_LIMITS.retriesMax) errors.retries = 'retries';
  const retryInterval = strictWhole(values.retryInterval);
  if (retryInterval === null || retryInterval < MONITOR_LIMITS.retryIntervalMin || retryInterval > MONITOR_LIMITS.retryIntervalMax) {
    errors.retryInterval = 'retryInterval';
  }
  if (values.dependsOn.length > DEPENDENCIES_MAX) errors.dependsOn = 'dependsOnTooMany';
  const degradedAfter = degradedAfterMs(values.degradedAfterMs);
  // A threshold at or past the timeout could never be crossed by a check that succeeds.
  if (
    degradedAfter !== null &&
    (Number.isNaN(degradedAfter) || degradedAfter < 1 || (!errors.timeout && degradedAfter >= timeout * 1000))
  ) {
    errors.degradedAfterMs = 'degradedAfter';
  }
  if (values.description.trim().length > MONITOR_LIMITS.descriptionMax) errors.description = 'descriptionTooLong';
  if (normalizeTags(values.tags) === null) errors.tags = 'tagsInvalid';
  Object.assign(errors, validateLocations(values));
  return errors;
}

/** The server's rules for where a check runs from: 1 to LOCATIONS_MAX locations, and `atLeast` N of them at most. */
function validateLocations(values: MonitorFormValues): MonitorFormErrors {
  if (!isProbeType(values.type)) return {};
  const errors: MonitorFormErrors = {};
  const count = values.locations.length;
  if (count === 0) errors.locations = 'locationsRequired';
  else if (count > LOCATIONS_MAX) errors.locations = 'locationsTooMany';
  const min = strictWhole(values.quorumMin);
  if (values.quorum === 'atLeast' && (min === null || min < 1 || min > Math.max(count, 1))) errors.quorumMin = 'quorumMin';
  return errors;
}

/**
 * Which location settings a body carries: all, the quorum only (only admins choose agents, so a member's save
 * leaves the locations as stored), or none (a test runs from the server, and other types are checked only there).
 */
export type LocationsSent = 'all' | 'quorum' | 'none';

function locationFields(values: MonitorFormValues, sent: LocationsSent): Pick<MonitorBody, 'locations' | 'quorum' | 'quorumMin'> {
  if (sent === 'none' || !isProbeType(values.type)) return {};
  const quorum = { quorum: values.quorum, quorumMin: values.quorum === 'atLeast' ? strictWhole(values.quorumMin) : null };
  return sent === 'all' ? { locations: values.locations, ...quorum } : quorum;
}

/**
 * The create/update (and test) body: interval in seconds (minutes × 60), the type and its fields; for HTTP also the
 * method, expected status, headers as an object and the body where it is sent.
 */
export function toMonitorRequest(values: MonitorFormValues, locations: LocationsSent = 'all'): MonitorBody {
  const common = {
    name: values.name.trim(),
    interval: intervalSeconds(values),
    timeout: parseWholeNumber(values.timeout),
    retries: strictWhole(values.retries) ?? MONITOR_DEFAULTS.retries,
    retryInterval: strictWhole(values.retryInterval) ?? MONITOR_DEFAULTS.retryInterval,
    assertions: toAssertions(values.assertions),
    dependsOn: values.dependsOn,
    degradedAfterMs: degradedAfterMs(values.degradedAfterMs),
    parentId: values.parentId,
    hostAgentId: values.hostAgentId,
    description: values.description.trim() || null,
    tags: normalizeTags(values.tags) ?? values.tags,
    // A group or manual monitor has no check to invert (the server refuses it there).
    upsideDown: isScheduled(values.type) && values.upsideDown,
    ...locationFields(values, locations),
  };
  const typeFields = toTypeFields(values.type, values, values.url.trim());
  if (typeFields.type !== undefined && typeFields.type !== 'http') return { ...common, ...typeFields };
  return {
    ...common,
    ...typeFields,
    method: values.method,
    expectedStatus: values.expectedStatus,
    headers: rowsToHeaders(values.headers),
    body: methodHasBody(values.method) && values.body !== '' ? values.body : null,
  };
}

/** What the form gives each group of fields: the values, a setter, and a field's translated error. */
export interface FieldGroupProps {
  values: MonitorFormValues;
  set: <K extends keyof MonitorFormValues>(key: K, value: MonitorFormValues[K]) => void;
  fieldError: (field: MonitorFormField) => string | undefined;
}
