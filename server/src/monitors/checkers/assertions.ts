import { createContext, Script } from 'node:vm';
import {
  isNumericText,
  parseJsonPath,
  parsePattern,
  type Assertion,
  type AssertionOperator,
  type AssertionOutcome,
  type JsonPathStep,
} from '@vigil/proto';
import type { ProbeResult } from './checker';
import { daysRemaining } from './peer-certificate';

/** A `matches` regex may run this long on one value; a pattern that backtracks longer fails its assertion instead. */
export const MATCH_TIME_LIMIT_MS = 50;
/** Text compared at most (the body is already at most 64 KiB); shown values are shortened further. */
const SHOWN_MAX = 120;

/** What a source saw: nothing, one value, or several (DNS answers: positive operators hold if any does). */
type Seen = { kind: 'none' } | { kind: 'one'; value: unknown } | { kind: 'many'; values: unknown[] };

/**
 * Evaluates every assertion on one probe, in order. Numbers compare as numbers when both sides are numeric, anything
 * else as text; `matches` runs under MATCH_TIME_LIMIT_MS; `jsonPath` reads the body as JSON with the subset of
 * `parseJsonPath`. A list source (`dnsAnswer`) holds when any answer satisfies a positive operator and when no answer
 * satisfies the opposite of a negative one (`ne`, `notContains`, `notExists`).
 */
export function evaluateAssertions(assertions: readonly Assertion[], probe: ProbeResult): AssertionOutcome[] {
  const json = lazyJson(probe.observed.body);
  return assertions.map((assertion) => evaluateOne(assertion, seenBy(assertion, probe, json)));
}

/** The first failing assertion's error, or null when every assertion held. */
export function firstFailure(outcomes: readonly AssertionOutcome[]): string | null {
  return outcomes.find((outcome) => !outcome.ok)?.error ?? null;
}

function seenBy(assertion: Assertion, probe: ProbeResult, json: () => { ok: boolean; value: unknown }): Seen {
  const { observed } = probe;
  const one = (value: unknown): Seen => (value === undefined || value === null ? { kind: 'none' } : { kind: 'one', value });
  switch (assertion.source) {
    case 'status':
      return one(probe.statusCode ?? observed.statusCode);
    case 'responseTime':
      return one(probe.responseTime);
    case 'body':
      return one(observed.body);
    case 'jsonPath': {
      const parsed = json();
      const steps = parseJsonPath(assertion.path ?? '');
      if (!parsed.ok || !steps) return { kind: 'none' };
      const found = walk(parsed.value, steps);
      // A JSON null is a value (`eq null` holds on it); only a missing key is nothing.
      return found.found ? { kind: 'one', value: found.value } : { kind: 'none' };
    }
    case 'header':
      return one(observed.headers?.[(assertion.path ?? '').toLowerCase()]);
    case 'certificateDays':
      return observed.certificate ? one(daysRemaining(observed.certificate.expiresAt, probe.checkedAt)) : { kind: 'none' };
    case 'dnsAnswer':
      return observed.dnsAnswers?.length ? { kind: 'many', values: observed.dnsAnswers } : { kind: 'none' };
    case 'packetLoss':
      return one(observed.packetLoss);
    case 'rowCount':
      return one(observed.rowCount);
    case 'value':
      return one(observed.value);
    default:
      // The added types' sources (ntp offset, amqp queue depth, smtp banner…) are figures their checkers name.
      return one(observed.metrics?.[assertion.source]);
  }
}

function walk(root: unknown, steps: JsonPathStep[]): { found: boolean; value?: unknown } {
  let current = root;
  for (const step of steps) {
    if (typeof step === 'number') {
      if (!Array.isArray(current) || step >= current.length) return { found: false };
      current = current[step];
    } else {
      if (typeof current !== 'object' || current === null || Array.isArray(current) || !Object.hasOwn(current, step))
        return { found: false };
      current = (current as Record<string, unknown>)[step];
    }
  }
  return { found: true, value: current };
}

function lazyJson(body: string | undefined): () => { ok: boolean; value: unknown } {
  let parsed: { ok: boolean; value: unknown } | null = null;
  return () => {
    if (parsed) return parsed;
    try {
      parsed = body === undefined ? { ok: false, value: undefined } : { ok: true, value: JSON.parse(body) };
    } catch {
      parsed = { ok: false, value: undefined };
    }
    return parsed;
  };
}

/** A value as text: strings as they are, anything else as JSON (`200`, `true`, `null`, `{"a":1}`). */
function asText(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
}

/** A value as the error shows it: numbers bare, text quoted, shortened. */
function shown(value: unknown): string {
  const text = typeof value === 'number' ? String(value) : JSON.stringify(typeof value === 'string' ? value : asText(value));
  return text.length > SHOWN_MAX ? `${text.slice(0, SHOWN_MAX)}…` : text;
}

function label(assertion: Assertion): string {
  if (assertion.source === 'jsonPath') return assertion.path ?? '$';
  if (assertion.source === 'header') return `header ${assertion.path ?? ''}`;
  return assertion.source;
}

function evaluateOne(assertion: Assertion, seen: Seen): AssertionOutcome {
  const values = seen.kind === 'none' ? [] : seen.kind === 'one' ? [seen.value] : seen.values;
  const actual = seen.kind === 'none' ? null : truncate(values.map(asText).join(', '));
  const verdict = judge(assertion, values);
  if (verdict.ok) return { assertion, ok: true, actual, error: null };
  const expected = assertion.value === undefined ? '' : ` ${shown(assertion.value)}`;
  const got =
    verdict.reason ?? (seen.kind === 'none' ? 'nothing' : seen.kind === 'one' ? shown(seen.value) : `[${values.map(shown).join(', ')}]`);
  return { assertion, ok: false, actual, error: `${label(assertion)} ${assertion.operator}${expected} failed: got ${got}` };
}

function truncate(text: string): string {
  return text.length > 1024 ? `${text.slice(0, 1024)}…` : text;
}

/** Operators whose failure on a list means "some value satisfied the opposite". */
const NEGATIVE: readonly AssertionOperator[] = ['ne', 'notContains', 'notExists'];

function judge(assertion: Assertion, values: unknown[]): { ok: boolean; reason?: string } {
  const { operator } = assertion;
  if (operator === 'exists') return { ok: values.length > 0 };
  if (operator === 'notExists') return { ok: values.length === 0 };
  if (values.length === 0) return { ok: false };
  const expected = assertion.value ?? null;
  if (NEGATIVE.includes(operator)) {
    const positive = operator === 'ne' ? 'eq' : 'contains';
    return { ok: values.every((value) => !holds(positive, value, expected).ok) };
  }
  let reason: string | undefined;
  for (const value of values) {
    const result = holds(operator, value, expected);
    if (result.ok) return { ok: true };
    reason ??= result.reason;
  }
  return { ok: false, reason };
}

/** Whether `actual <operator> expected` holds for one value. */
function holds(operator: AssertionOperator, actual: unknown, expected: Assertion['value']): { ok: boolean; reason?: string } {
  const actualText = asText(actual);
  const expectedText = expected === null ? 'null' : String(expected);
  const numeric = isNumber(actual, actualText) && isNumber(expected, expectedText);
  switch (operator) {
    case 'eq':
      return { ok: numeric ? Number(actualText) === Number(expectedText) : actualText === expectedText };
    case 'ne':
      return { ok: numeric ? Number(actualText) !== Number(expectedText) : actualText !== expectedText };
    case 'lt':
    case 'lte':
    case 'gt':
    case 'gte': {
      if (!isNumber(actual, actualText)) return { ok: false, reason: `${shown(actual)} (not a number)` };
      const a = Number(actualText);
      const b = Number(expectedText);
      const ok = operator === 'lt' ? a < b : operator === 'lte' ? a <= b : operator === 'gt' ? a > b : a >= b;
      return { ok };
    }
    case 'contains':
      return { ok: actualText.includes(expectedText) };
    case 'notContains':
      return { ok: !actualText.includes(expectedText) };
    case 'matches':
      return matches(expectedText, actualText);
    case 'exists':
    case 'notExists':
      return { ok: false };
  }
}

function isNumber(value: unknown, text: string): boolean {
  if (typeof value === 'number') return Number.isFinite(value);
  return typeof value === 'string' && isNumericText(text);
}

/**
 * Runs a `matches` regex in a context of its own with a time limit: V8 interrupts a regex that backtracks past it, so
 * a pattern like `(a+)+$` on a long body fails its assertion instead of stalling every check on the event loop. One
 * context is reused (creating one costs about a millisecond); the subject and pattern are passed as its globals.
 */
const sandbox = createContext({ subject: '', source: '', flags: '' });
const test = new Script('new RegExp(source, flags).test(subject)');

function matches(pattern: string, subject: string): { ok: boolean; reason?: string } {
  const parsed = parsePattern(pattern);
  if (!parsed) return { ok: false, reason: `an invalid pattern ${shown(pattern)}` };
  Object.assign(sandbox, { subject, source: parsed.source, flags: parsed.flags });
  try {
    return { ok: test.runInContext(sandbox, { timeout: MATCH_TIME_LIMIT_MS }) === true };
  } catch {
    return { ok: false, reason: `${shown(subject)} (the pattern took longer than ${MATCH_TIME_LIMIT_MS} ms)` };
  } finally {
    Object.assign(sandbox, { subject: '', source: '', flags: '' });
  }
}
