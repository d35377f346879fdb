import { describe, expect, it } from 'vitest';
import { type AssertionRow, assertionRowError, newAssertionRow, toAssertions } from './assertions';

const row = (fields: Partial<AssertionRow>): AssertionRow => ({ ...newAssertionRow('http'), ...fields });

describe('assertionRowError (proto validateAssertions on the row as sent)', () => {
  it.each([
    ['http', { source: 'status', operator: 'eq', value: '200' }, null],
    ['http', { source: 'jsonPath', path: ' $.data[0]["id"] ', operator: 'exists', value: '' }, null],
    ['tcp', { source: 'responseTime', operator: 'lt', value: '1e3' }, null],
    ['dns', { source: 'dnsAnswer', operator: 'contains', value: '192.0.2.10' }, null],
    ['tcp', { source: 'dnsAnswer', operator: 'contains', value: 'x' }, 'monitors.assertionSourceNotForType'],
    ['http', { source: 'header', path: '  ', operator: 'exists' }, 'monitors.assertionPathRequired'],
    ['http', { source: 'header', path: 'Bad Header', operator: 'exists' }, 'monitors.assertionPathInvalid'],
    ['http', { source: 'jsonPath', path: `$.${'a'.repeat(200)}`, operator: 'exists' }, 'monitors.assertionPathInvalid'],
    ['http', { source: 'body', operator: 'contains', value: ' ' }, 'monitors.assertionValueRequired'],
    ['http', { source: 'body', operator: 'contains', value: 'x'.repeat(1025) }, 'monitors.assertionValueTooLong'],
    ['http', { source: 'responseTime', operator: 'gte', value: 'fast' }, 'monitors.assertionValueNumeric'],
    ['http', { source: 'body', operator: 'matches', value: '/ok/g' }, 'monitors.assertionPatternInvalid'],
    ['http', { source: 'body', operator: 'matches', value: '/^ok/i' }, null],
  ] as const)('%s %j → %s', (type, fields, code) => {
    expect(assertionRowError(type, row(fields))).toBe(code);
  });
});

describe('toAssertions', () => {
  it('sends numbers on numeric sources, a trimmed path where read, and no value on valueless operators', () => {
    expect(
      toAssertions([
        row({ source: 'responseTime', operator: 'lt', value: '1e3' }),
        row({ source: 'header', path: ' X-Version ', operator: 'exists', value: 'ignored' }),
        row({ source: 'body', operator: 'eq', value: '200' }),
      ]),
    ).toEqual([
      { source: 'responseTime', operator: 'lt', value: 1000 },
      { source: 'header', path: 'X-Version', operator: 'exists' },
      { source: 'body', operator: 'eq', value: '200' },
    ]);
  });
});
