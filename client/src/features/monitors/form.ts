import {
  type HttpMethod,
  isHttpUrl,
  METHODS_WITH_BODY,
  MONITOR_DEFAULTS,
  MONITOR_LIMITS,
  type MonitorDto,
  type MonitorRequest,
} from '@vigil/proto';
import { minutesToSeconds, parseWholeNumber, secondsToMinutes } from './format';
import { type HeaderRow, headersToRows, invalidHeaderRow, rowsToHeaders } from './headers';

/** The form's fields as typed: numbers stay text until submit, so "abc" can be shown and then rejected. */
export interface MonitorFormValues {
  name: string;
  url: string;
  method: HttpMethod;
  /** Minutes. */
  interval: string;
  /** Seconds. */
  timeout: string;
  expectedStatus: number;
  headers: HeaderRow[];
  body: string;
  retries: string;
  /** Seconds. */
  retryInterval: string;
}

export type MonitorFormField = 'name' | 'url' | 'interval' | 'timeout' | 'headers' | 'body' | 'retries' | 'retryInterval';

export type MonitorFormErrorKey =
  | 'nameRequired'
  | 'nameTooLong'
  | 'urlRequired'
  | 'urlInvalid'
  | 'intervalMin'
  | 'intervalMax'
  | 'timeoutMin'
  | 'timeoutMax'
  | 'timeoutBelowInterval'
  | 'headersInvalid'
  | 'bodyTooLarge'
  | 'retries'
  | 'retryInterval';

export type MonitorFormErrors = Partial<Record<MonitorFormField, MonitorFormErrorKey>>;

export const INTERVAL_MAX_MINUTES = MONITOR_LIMITS.intervalMax / 60;

/** Whether the method sends a body, so the body field shows (spec section 2). */
export function methodHasBody(method: HttpMethod): boolean {
  return METHODS_WITH_BODY.includes(method);
}

/** A new monitor's fields: GET, 1 minute, 30 s, 200 (spec section 9), and the server's retry defaults. */
export function defaultFormValues(): MonitorFormValues {
  return {
    name: '',
    url: '',
    method: MONITOR_DEFAULTS.method,
    interval: String(secondsToMinutes(MONITOR_DEFAULTS.interval)),
    timeout: String(MONITOR_DEFAULTS.timeout),
    expectedStatus: MONITOR_DEFAULTS.expectedStatus,
    headers: headersToRows({}),
    body: '',
    retries: String(MONITOR_DEFAULTS.retries),
    retryInterval: String(MONITOR_DEFAULTS.retryInterval),
  };
}

/** A stored monitor's fields, its interval shown in whole minutes (rounded down). */
export function formValuesFromMonitor(monitor: MonitorDto): MonitorFormValues {
  return {
    name: monitor.name,
    url: monitor.url,
    method: monitor.method,
    interval: String(secondsToMinutes(monitor.interval)),
    timeout: String(monitor.timeout),
    expectedStatus: monitor.expected_status,
    headers: headersToRows(monitor.headers),
    body: monitor.body ?? '',
    retries: String(monitor.retries),
    retryInterval: String(monitor.retry_interval),
  };
}

/** Retries are a count where 0 is meaningful, so unlike the interval a non-number is an error, not 0. */
function strictWhole(text: string): number | null {
  return /^\s*\d+\s*$/.test(text) ? Number(text.trim()) : null;
}

/** The same rules the server applies (spec section 5), checked first so a bad form sends nothing. */
export function validateMonitorForm(values: MonitorFormValues): MonitorFormErrors {
  const errors: MonitorFormErrors = {};
  const name = values.name.trim();
  if (!name) errors.name = 'nameRequired';
  else if (name.length > MONITOR_LIMITS.nameMax) errors.name = 'nameTooLong';

  const url = values.url.trim();
  if (!url) errors.url = 'urlRequired';
  else if (url.length > MONITOR_LIMITS.urlMax || !isHttpUrl(url)) errors.url = 'urlInvalid';

  const minutes = parseWholeNumber(values.interval);
  if (minutes < 1) errors.interval = 'intervalMin';
  else if (minutes > INTERVAL_MAX_MINUTES) errors.interval = 'intervalMax';

  const timeout = parseWholeNumber(values.timeout);
  if (timeout < MONITOR_LIMITS.timeoutMin) errors.timeout = 'timeoutMin';
  else if (timeout > MONITOR_LIMITS.timeoutMax) errors.timeout = 'timeoutMax';
  else if (!errors.interval && timeout >= minutesToSeconds(minutes)) errors.timeout = 'timeoutBelowInterval';

  if (invalidHeaderRow(values.headers) >= 0) errors.headers = 'headersInvalid';
  if (methodHasBody(values.method) && new TextEncoder().encode(values.body).length > MONITOR_LIMITS.bodyMax) errors.body = 'bodyTooLarge';

  const retries = strictWhole(values.retries);
  if (retries === null || retries < MONITOR_LIMITS.retriesMin || retries > MONITOR_LIMITS.retriesMax) errors.retries = 'retries';
  const retryInterval = strictWhole(values.retryInterval);
  if (retryInterval === null || retryInterval < MONITOR_LIMITS.retryIntervalMin || retryInterval > MONITOR_LIMITS.retryIntervalMax) {
    errors.retryInterval = 'retryInterval';
  }
  return errors;
}

/** The create/update body: interval in seconds (minutes × 60), headers as an object, body only where it is sent. */
export function toMonitorRequest(values: MonitorFormValues): MonitorRequest {
  return {
    name: values.name.trim(),
    url: values.url.trim(),
    method: values.method,
    interval: minutesToSeconds(parseWholeNumber(values.interval)),
    timeout: parseWholeNumber(values.timeout),
    expectedStatus: values.expectedStatus,
    headers: rowsToHeaders(values.headers),
    body: methodHasBody(values.method) && values.body !== '' ? values.body : null,
    retries: strictWhole(values.retries) ?? MONITOR_DEFAULTS.retries,
    retryInterval: strictWhole(values.retryInterval) ?? MONITOR_DEFAULTS.retryInterval,
  };
}
