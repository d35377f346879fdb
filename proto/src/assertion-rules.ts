/**
 * The rules of the assertion language both sides apply: what a valid assertion list is (checked on save and in the
 * form), the JSONPath subset and how a `matches` pattern is written. The server evaluates them (checkers/assertions.ts).
 */
import type { MessageCode } from './messages';
import {
  ASSERTION_OPERATORS,
  ASSERTION_SOURCES,
  ASSERTION_SOURCES_BY_TYPE,
  MONITOR_TYPE_LIMITS as L,
  PATH_SOURCES,
  VALUELESS_OPERATORS,
  type Assertion,
  type AssertionOperator,
  type MonitorType,
} from './monitor-types';

/** Operators comparing numbers: their value must be a number. */
const ORDERING_OPERATORS: readonly AssertionOperator[] = ['lt', 'lte', 'gt', 'gte'];

/** One step of a JSONPath: an object key or an array index. */
export type JsonPathStep = string | number;

/**
 * The JSONPath subset: `$` then any of `.name`, `["any name"]` (or single quotes) and `[index]`, e.g.
 * `$.data.items[0]["content-type"]`. No wildcards, filters or recursive descent: one path names one value. A bare
 * `status.code` is read as `$.status.code`. Null when the text is not such a path.
 */
export function parseJsonPath(text: string): JsonPathStep[] | null {
  let rest = text.trim();
  if (rest.startsWith('$')) rest = rest.slice(1);
  else if (rest !== '' && !rest.startsWith('[')) rest = `.${rest}`;
  const steps: JsonPathStep[] = [];
  const step = /^(?:\.([A-Za-z_$][\w$-]*)|\[(\d{1,9})\]|\["((?:[^"\\]|\\.)*)"\]|\['((?:[^'\\]|\\.)*)'\])/;
  while (rest !== '') {
    const match = step.exec(rest);
    if (!match) return null;
    if (match[1] !== undefined) steps.push(match[1]);
    else if (match[2] !== undefined) steps.push(Number(match[2]));
    else steps.push((match[3] ?? match[4]).replace(/\\(.)/g, '$1'));
    rest = rest.slice(match[0].length);
  }
  return steps;
}

/**
 * A `matches` value: a bare pattern (`^ok`), or `/pattern/flags` with flags among `i`, `m`, `s`, `u`. Null when it
 * does not compile.
 */
export function parsePattern(value: string): { source: string; flags: string } | null {
  const literal = /^\/(.*)\/([a-z]*)$/s.exec(value);
  const source = literal ? literal[1] : value;
  const flags = literal ? literal[2] : '';
  // `g` and `y` make test() stateful, `d` and `v` are not needed: a literal with them is refused rather than read as text.
  if (!/^[imsu]*$/.test(flags) || new Set(flags).size !== flags.length) return null;
  try {
    new RegExp(source, flags);
    return { source, flags };
  } catch {
    return null;
  }
}

/** Whether a text is a number as assertions compare them (`200`, `-1.5`, `1e3`; not `''`, not `0x10`). */
export function isNumericText(text: string): boolean {
  return /^\s*-?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?\s*$/i.test(text);
}

type AssertionsCheck = { ok: true; assertions: Assertion[] } | { ok: false; code: MessageCode };

/**
 * Validates a monitor's assertion list for its type and returns it normalized (trimmed paths, no value on
 * exists/notExists, no path where none is read), or the code of the first problem found.
 */
export function validateAssertions(type: MonitorType, value: unknown): AssertionsCheck {
  if (value === undefined || value === null) return { ok: true, assertions: [] };
  if (!Array.isArray(value) || value.length > L.assertionsMax) return { ok: false, code: 'monitors.assertionsInvalid' };
  const assertions: Assertion[] = [];
  for (const item of value) {
    const checked = validateOne(type, item);
    if (typeof checked === 'string') return { ok: false, code: checked };
    assertions.push(checked);
  }
  return { ok: true, assertions };
}

function validateOne(type: MonitorType, item: unknown): Assertion | MessageCode {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return 'monitors.assertionsInvalid';
  const { source, path, operator, value, soft } = item as Record<string, unknown>;
  if (!(ASSERTION_SOURCES as readonly unknown[]).includes(source)) return 'monitors.assertionSourceInvalid';
  if (!(ASSERTION_OPERATORS as readonly unknown[]).includes(operator)) return 'monitors.assertionOperatorInvalid';
  if (soft !== undefined && typeof soft !== 'boolean') return 'monitors.assertionsInvalid';
  const assertion: Assertion = { source: source as Assertion['source'], operator: operator as AssertionOperator };
  if (soft) assertion.soft = true;
  if (!ASSERTION_SOURCES_BY_TYPE[type].includes(assertion.source)) return 'monitors.assertionSourceNotForType';
  if (PATH_SOURCES.includes(assertion.source)) {
    if (typeof path !== 'string' || path.trim() === '') return 'monitors.assertionPathRequired';
    const trimmed = path.trim();
    if (trimmed.length > L.assertionPathMax) return 'monitors.assertionPathInvalid';
    if (assertion.source === 'jsonPath' && !parseJsonPath(trimmed)) return 'monitors.assertionPathInvalid';
    if (assertion.source === 'header' && !/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(trimmed)) return 'monitors.assertionPathInvalid';
    assertion.path = trimmed;
  }
  if (VALUELESS_OPERATORS.includes(assertion.operator)) return assertion;
  if (
    value === undefined ||
    (typeof value === 'string' && value.trim() === '' && assertion.operator !== 'eq' && assertion.operator !== 'ne')
  ) {
    return 'monitors.assertionValueRequired';
  }
  if (value !== null && !['string', 'number', 'boolean'].includes(typeof value)) return 'monitors.assertionValueRequired';
  if (typeof value === 'number' && !Number.isFinite(value)) return 'monitors.assertionValueNumeric';
  if (typeof value === 'string' && value.length > L.assertionValueMax) return 'monitors.assertionValueTooLong';
  if (
    ORDERING_OPERATORS.includes(assertion.operator) &&
    !(typeof value === 'number' || (typeof value === 'string' && isNumericText(value)))
  ) {
    return 'monitors.assertionValueNumeric';
  }
  if (assertion.operator === 'matches' && (typeof value !== 'string' || !parsePattern(value))) return 'monitors.assertionPatternInvalid';
  assertion.value = value as Assertion['value'];
  return assertion;
}
