import {
  type Assertion,
  type AssertionOperator,
  type AssertionSource,
  ASSERTION_SOURCES_BY_TYPE,
  isNumericText,
  NUMERIC_SOURCES,
  type MessageCode,
  type MonitorType,
  PATH_SOURCES,
  validateAssertions,
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
 * The code of the row's problem (a `server.<code>` message), or null: the row as it would be sent, checked by proto's
 * `validateAssertions`, the rule the server applies on save.
 */
export function assertionRowError(type: MonitorType, row: AssertionRow): MessageCode | null {
  const checked = validateAssertions(type, [toAssertion(row)]);
  return checked.ok ? null : checked.code;
}

/** The rows as the request sends them: path only where used, value a number on numeric sources, none when valueless. */
export function toAssertions(rows: readonly AssertionRow[]): Assertion[] {
  return rows.map(toAssertion);
}

function toAssertion({ source, path, operator, value }: AssertionRow): Assertion {
  const assertion: Assertion = { source, operator };
  if (needsPath(source)) assertion.path = path.trim();
  if (needsValue(operator)) assertion.value = NUMERIC_SOURCES.includes(source) && isNumericText(value) ? Number(value) : value;
  return assertion;
}

/** The rows a type can keep when the type changes: those on sources it observes. */
export function rowsForType(type: MonitorType, rows: readonly AssertionRow[]): AssertionRow[] {
  return rows.filter((row) => ASSERTION_SOURCES_BY_TYPE[type].includes(row.source));
}
