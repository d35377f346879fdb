import {
  ASSERTION_OPERATORS,
  ASSERTION_SOURCES,
  ASSERTION_SOURCES_BY_TYPE,
  MONITOR_TYPE_LIMITS,
  MONITOR_TYPES,
  parseJsonPath,
  parsePattern,
  validateAssertions,
  type MonitorTypeFields,
  type MonitorTypeRequest,
} from '@vigil/proto';

describe('validateAssertions', () => {
  it.each([undefined, null, []])('accepts %j as no assertions', (value) => {
    expect(validateAssertions('http', value)).toEqual({ ok: true, assertions: [] });
  });

  it.each([
    ['not a list', { source: 'status' }, 'monitors.assertionsInvalid'],
    ['an item that is not an object', ['status eq 200'], 'monitors.assertionsInvalid'],
    [
      'too many',
      Array.from({ length: MONITOR_TYPE_LIMITS.assertionsMax + 1 }, () => ({ source: 'status', operator: 'exists' })),
      'monitors.assertionsInvalid',
    ],
    ['an unknown source', [{ source: 'latency', operator: 'lt', value: 1 }], 'monitors.assertionSourceInvalid'],
    ['an unknown operator', [{ source: 'status', operator: '==', value: 200 }], 'monitors.assertionOperatorInvalid'],
    ['a jsonPath without path', [{ source: 'jsonPath', operator: 'eq', value: 'ok' }], 'monitors.assertionPathRequired'],
    ['a header with a blank path', [{ source: 'header', path: '  ', operator: 'exists' }], 'monitors.assertionPathRequired'],
    ['a JSONPath outside the subset', [{ source: 'jsonPath', path: '$..status', operator: 'exists' }], 'monitors.assertionPathInvalid'],
    ['a JSONPath filter', [{ source: 'jsonPath', path: '$.items[?(@.a)]', operator: 'exists' }], 'monitors.assertionPathInvalid'],
    ['a header name with a space', [{ source: 'header', path: 'X Count', operator: 'exists' }], 'monitors.assertionPathInvalid'],
    ['a path too long', [{ source: 'jsonPath', path: `$.${'a'.repeat(200)}`, operator: 'exists' }], 'monitors.assertionPathInvalid'],
    ['a missing value', [{ source: 'status', operator: 'eq' }], 'monitors.assertionValueRequired'],
    ['a blank value for contains', [{ source: 'body', operator: 'contains', value: ' ' }], 'monitors.assertionValueRequired'],
    ['an object value', [{ source: 'body', operator: 'eq', value: { a: 1 } }], 'monitors.assertionValueRequired'],
    ['a value too long', [{ source: 'body', operator: 'contains', value: 'x'.repeat(1025) }], 'monitors.assertionValueTooLong'],
    ['a text value for lt', [{ source: 'responseTime', operator: 'lt', value: 'fast' }], 'monitors.assertionValueNumeric'],
    ['an infinite number', [{ source: 'responseTime', operator: 'lt', value: Infinity }], 'monitors.assertionValueNumeric'],
    ['an invalid regex', [{ source: 'body', operator: 'matches', value: '(unclosed' }], 'monitors.assertionPatternInvalid'],
    ['a regex with an unknown flag', [{ source: 'body', operator: 'matches', value: '/a/g' }], 'monitors.assertionPatternInvalid'],
  ])('refuses %s', (_name, value, code) => {
    expect(validateAssertions('http', value)).toEqual({ ok: false, code });
  });

  it.each(MONITOR_TYPES.flatMap((type) => ASSERTION_SOURCES.map((source) => [type, source] as const)))(
    'for a %s monitor, takes %s only where the type observes it',
    (type, source) => {
      const path = source === 'jsonPath' ? '$.a' : source === 'header' ? 'X-A' : undefined;
      const result = validateAssertions(type, [{ source, path, operator: 'exists' }]);
      if (ASSERTION_SOURCES_BY_TYPE[type].includes(source)) expect(result.ok).toBe(true);
      else expect(result).toEqual({ ok: false, code: 'monitors.assertionSourceNotForType' });
    },
  );

  it.each(ASSERTION_OPERATORS)('accepts the operator %s with a fitting value', (operator) => {
    const value = ['lt', 'lte', 'gt', 'gte'].includes(operator) ? '12.5' : operator === 'matches' ? '^o+k$' : 'ok';
    expect(validateAssertions('http', [{ source: 'body', operator, value }]).ok).toBe(true);
  });

  it('keeps soft: true, drops soft: false, and refuses a soft that is not a boolean', () => {
    const base = { source: 'status', operator: 'eq', value: 200 };
    expect(validateAssertions('http', [{ ...base, soft: true }])).toEqual({ ok: true, assertions: [{ ...base, soft: true }] });
    expect(validateAssertions('http', [{ ...base, soft: false }])).toEqual({ ok: true, assertions: [base] });
    expect(validateAssertions('http', [{ ...base, soft: 'yes' }])).toEqual({ ok: false, code: 'monitors.assertionsInvalid' });
  });

  it('normalizes: trimmed paths, no value on exists, no path where none is read', () => {
    expect(
      validateAssertions('http', [
        { source: 'jsonPath', path: '  $.status ', operator: 'eq', value: 'ok' },
        { source: 'header', path: 'X-A', operator: 'exists', value: 'ignored' },
        { source: 'status', path: 'ignored', operator: 'eq', value: 200 },
        { source: 'body', operator: 'eq', value: '' },
      ]),
    ).toEqual({
      ok: true,
      assertions: [
        { source: 'jsonPath', path: '$.status', operator: 'eq', value: 'ok' },
        { source: 'header', path: 'X-A', operator: 'exists' },
        { source: 'status', operator: 'eq', value: 200 },
        { source: 'body', operator: 'eq', value: '' },
      ],
    });
  });
});

describe('parseJsonPath', () => {
  it.each([
    ['$', []],
    ['$.a.b', ['a', 'b']],
    ['$.items[0].name', ['items', 0, 'name']],
    ['$["a-b"][\'c d\']', ['a-b', 'c d']],
    ['$["quote\\"d"]', ['quote"d']],
    ['status.code', ['status', 'code']],
    ['[2]', [2]],
  ])('reads %s', (path, steps) => {
    expect(parseJsonPath(path)).toEqual(steps);
  });

  it.each(['$..a', '$.*', '$.a[*]', '$.a[-1]', '$.a[?(@.b)]', '$.', '$a', '$.a b'])('refuses %s', (path) => {
    expect(parseJsonPath(path)).toBeNull();
  });
});

describe('parsePattern', () => {
  it.each([
    ['^ok', { source: '^ok', flags: '' }],
    ['/ok/i', { source: 'ok', flags: 'i' }],
    ['/a/b/ms', { source: 'a/b', flags: 'ms' }],
  ])('reads %s', (value, parsed) => {
    expect(parsePattern(value)).toEqual(parsed);
  });

  it.each(['(', '[a-', '/x/g'])('refuses %s', (value) => {
    expect(parsePattern(value)).toBeNull();
  });
});

describe('MonitorTypeRequest', () => {
  it('takes every per-type body of MonitorTypeFields', () => {
    const bodies: MonitorTypeFields[] = [
      { url: 'https://example.com' },
      { type: 'tcp', hostname: 'db', port: 5432 },
      { type: 'postgres', connectionString: 'postgres://db/app' },
      { type: 'push' },
    ];
    const requests: MonitorTypeRequest[] = bodies;
    expect(requests).toHaveLength(4);
  });
});
