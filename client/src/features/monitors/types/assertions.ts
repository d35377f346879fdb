import {
  type Assertion,
  type AssertionOperator,
  type AssertionSource,
  ASSERTION_SOURCES_BY_TYPE,
  MONITOR_TYPE_LIMITS,
  type MonitorType,
  PATH_SOURCES,
  VALUELESS_OPERATORS,
} from '@vigil/proto';

/** One row of the assertion builder as typed: the value stays text until sent. */
export interface AssertionRow {
  /** Stable React key of the row. */
  key: number;
  source: AssertionSource;
  path: string;
  operator: AssertionOperator;
  value: string;
}

export type AssertionErrorKey =
  | 'assertionSource'
  | 'assertionPathRequired'
  | 'assertionPathTooLong'
  | 'assertionValueRequired'
  | 'assertionValueTooLong'
  | 'assertionValueNumber'
  | 'assertionRegexInvalid';

/** Sources whose values are numbers: their assertion values are sent as numbers. */
export const NUMERIC_SOURCES: readonly AssertionSource[] = ['status', 'responseTime', 'certificateDays', 'packetLoss', 'rowCount'];
const ORDERING_OPERATORS: readonly AssertionOperator[] = ['lt', 'lte', 'gt', 'gte'];
const NUMBER = /^\s*-?\d+(\.\d+)?\s*$/;

let nextKey = 0;

/** A new row for the type: its first source, and a threshold on the response time as the usual first condition. */
export function newAssertionRow(type: MonitorType, source: AssertionSource = ASSERTION_SOURCES_BY_TYPE[type][0]): AssertionRow {
  return { key: ++nextKey, source, path: '', operator: source === 'responseTime' ? 'lt' : 'eq', value: '' };
}

export function assertionRowsFrom(assertions: readonly Assertion[]): AssertionRow[] {
  return assertions.map((assertion) => ({
    key: ++nextKey,
    source: assertion.source,
    path: assertion.path ?? '',
    operator: assertion.operator,
    value: assertion.value === undefined || assertion.value === null ? '' : String(assertion.value),
  }));
}

export function needsPath(source: AssertionSource): boolean {
  return PATH_SOURCES.includes(source);
}

export function needsValue(operator: AssertionOperator): boolean {
  return !VALUELESS_OPERATORS.includes(operator);
}

/**
 * The row's first problem, or null. The same rule the server applies on save (sources of the type, path where the
 * source needs one, value where the operator takes one, bounds). It is a local copy until proto offers the shared
 * `validateAssertions` (issue 16); then this function should call that and map its answer.
 */
export function assertionRowError(type: MonitorType, row: AssertionRow): AssertionErrorKey | null {
  if (!ASSERTION_SOURCES_BY_TYPE[type].includes(row.source)) return 'assertionSource';
  if (needsPath(row.source)) {
    if (!row.path.trim()) return 'assertionPathRequired';
    if (row.path.trim().length > MONITOR_TYPE_LIMITS.assertionPathMax) return 'assertionPathTooLong';
  }
  if (!needsValue(row.operator)) return null;
  if (row.value === '') return 'assertionValueRequired';
  if (row.value.length > MONITOR_TYPE_LIMITS.assertionValueMax) return 'assertionValueTooLong';
  if (ORDERING_OPERATORS.includes(row.operator) && !NUMBER.test(row.value)) return 'assertionValueNumber';
  if (row.operator === 'matches' && !compiles(row.value)) return 'assertionRegexInvalid';
  return null;
}

function compiles(pattern: string): boolean {
  try {
    new RegExp(pattern);
    return true;
  } catch {
    return false;
  }
}

/** The rows as the request sends them: path only where used, value a number on numeric sources, none when valueless. */
export function toAssertions(rows: readonly AssertionRow[]): Assertion[] {
  return rows.map(({ source, path, operator, value }) => {
    const assertion: Assertion = { source, operator };
    if (needsPath(source)) assertion.path = path.trim();
    if (needsValue(operator)) assertion.value = NUMERIC_SOURCES.includes(source) && NUMBER.test(value) ? Number(value) : value;
    return assertion;
  });
}

/** The rows a type can keep when the type changes: those on sources it observes. */
export function rowsForType(type: MonitorType, rows: readonly AssertionRow[]): AssertionRow[] {
  return rows.filter((row) => ASSERTION_SOURCES_BY_TYPE[type].includes(row.source));
}
