import type { Assertion, AssertionOperator } from '@vigil/proto';
import { evaluateAssertions, firstFailure, MATCH_TIME_LIMIT_MS } from './assertions';
import type { Observed, ProbeResult } from './checker';

const CHECKED_AT = new Date('2026-01-01T00:00:00Z');

function probe(observed: Observed, extra: Partial<ProbeResult> = {}): ProbeResult {
  return { ok: true, statusCode: 200, responseTime: 120, error: null, checkedAt: CHECKED_AT, observed, ...extra };
}

const BODY = JSON.stringify({
  status: 'degraded',
  count: 3,
  ok: true,
  none: null,
  items: [{ name: 'a' }, { name: 'b' }],
  'a-b': { c: 'x' },
});
const SEEN = probe({
  statusCode: 200,
  body: BODY,
  headers: { 'content-type': 'application/json; charset=utf-8', 'x-count': '42' },
  certificate: {
    subject: 'CN=example.com',
    issuer: 'CN=Test CA',
    expiresAt: new Date(CHECKED_AT.getTime() + 10.5 * 86_400_000),
    fingerprint: 'AA:BB',
    authorizationError: null,
  },
  dnsAnswers: ['10.0.0.1', '10.0.0.2'],
  packetLoss: 0,
  rowCount: 2,
  value: 'PONG',
});

const one = (assertion: Assertion, seen = SEEN) => evaluateAssertions([assertion], seen)[0];

describe('evaluateAssertions', () => {
  it.each<[string, Assertion, boolean]>([
    // status: numbers compare as numbers, whatever the value's form
    ['status eq 200', { source: 'status', operator: 'eq', value: 200 }, true],
    ['status eq "200.0"', { source: 'status', operator: 'eq', value: '200.0' }, true],
    ['status ne 200', { source: 'status', operator: 'ne', value: 200 }, false],
    ['status lt 300', { source: 'status', operator: 'lt', value: 300 }, true],
    ['status lte 200', { source: 'status', operator: 'lte', value: 200 }, true],
    ['status gt 200', { source: 'status', operator: 'gt', value: 200 }, false],
    ['status gte 200', { source: 'status', operator: 'gte', value: '200' }, true],
    ['status matches ^2', { source: 'status', operator: 'matches', value: '^2\\d\\d$' }, true],
    ['status exists', { source: 'status', operator: 'exists' }, true],
    // responseTime
    ['responseTime lt 300', { source: 'responseTime', operator: 'lt', value: 300 }, true],
    ['responseTime gt 300', { source: 'responseTime', operator: 'gt', value: 300 }, false],
    // body: text operators
    ['body contains degraded', { source: 'body', operator: 'contains', value: 'degraded' }, true],
    ['body notContains error', { source: 'body', operator: 'notContains', value: 'error' }, true],
    ['body notContains degraded', { source: 'body', operator: 'notContains', value: 'degraded' }, false],
    ['body matches /DEGRADED/i', { source: 'body', operator: 'matches', value: '/DEGRADED/i' }, true],
    ['body matches DEGRADED', { source: 'body', operator: 'matches', value: 'DEGRADED' }, false],
    ['body eq whole text', { source: 'body', operator: 'eq', value: BODY }, true],
    // jsonPath: the subset, JSON values as text, numbers numerically
    ['$.status eq degraded', { source: 'jsonPath', path: '$.status', operator: 'eq', value: 'degraded' }, true],
    ['$.status ne ok', { source: 'jsonPath', path: '$.status', operator: 'ne', value: 'ok' }, true],
    ['$.count gte 3', { source: 'jsonPath', path: '$.count', operator: 'gte', value: 3 }, true],
    ['$.count eq "3"', { source: 'jsonPath', path: '$.count', operator: 'eq', value: '3' }, true],
    ['$.ok eq true', { source: 'jsonPath', path: '$.ok', operator: 'eq', value: true }, true],
    ['$.none eq null', { source: 'jsonPath', path: '$.none', operator: 'eq', value: null }, true],
    ['$.none exists', { source: 'jsonPath', path: '$.none', operator: 'exists' }, true],
    ['$.missing notExists', { source: 'jsonPath', path: '$.missing', operator: 'notExists' }, true],
    ['$.missing exists', { source: 'jsonPath', path: '$.missing', operator: 'exists' }, false],
    ['$.items[1].name eq b', { source: 'jsonPath', path: '$.items[1].name', operator: 'eq', value: 'b' }, true],
    ['$.items[5] exists', { source: 'jsonPath', path: '$.items[5]', operator: 'exists' }, false],
    ['$["a-b"].c eq x', { source: 'jsonPath', path: '$["a-b"].c', operator: 'eq', value: 'x' }, true],
    ['bare status.length is a key path', { source: 'jsonPath', path: 'status', operator: 'contains', value: 'grad' }, true],
    ['$.items contains "name"', { source: 'jsonPath', path: '$.items', operator: 'contains', value: '"name":"a"' }, true],
    ['$.status lt 5 (not a number)', { source: 'jsonPath', path: '$.status', operator: 'lt', value: 5 }, false],
    // header: any case of the name
    ['header Content-Type contains json', { source: 'header', path: 'Content-Type', operator: 'contains', value: 'json' }, true],
    ['header X-Count gt 40', { source: 'header', path: 'X-Count', operator: 'gt', value: 40 }, true],
    ['header X-Missing notExists', { source: 'header', path: 'X-Missing', operator: 'notExists' }, true],
    // certificateDays: whole days left at the check
    ['certificateDays eq 10', { source: 'certificateDays', operator: 'eq', value: 10 }, true],
    ['certificateDays gt 14', { source: 'certificateDays', operator: 'gt', value: 14 }, false],
    // dnsAnswer: positive operators need one answer, negative ones all
    ['dnsAnswer eq 10.0.0.2', { source: 'dnsAnswer', operator: 'eq', value: '10.0.0.2' }, true],
    ['dnsAnswer ne 10.0.0.2', { source: 'dnsAnswer', operator: 'ne', value: '10.0.0.2' }, false],
    ['dnsAnswer ne 10.0.0.9', { source: 'dnsAnswer', operator: 'ne', value: '10.0.0.9' }, true],
    ['dnsAnswer contains 10.0.0.', { source: 'dnsAnswer', operator: 'contains', value: '10.0.0.' }, true],
    ['dnsAnswer notContains .2', { source: 'dnsAnswer', operator: 'notContains', value: '.2' }, false],
    ['dnsAnswer matches ^10\\.', { source: 'dnsAnswer', operator: 'matches', value: '^10\\.0\\.0\\.1$' }, true],
    ['dnsAnswer exists', { source: 'dnsAnswer', operator: 'exists' }, true],
    // packetLoss, rowCount, value
    ['packetLoss lte 0', { source: 'packetLoss', operator: 'lte', value: 0 }, true],
    ['packetLoss gt 0', { source: 'packetLoss', operator: 'gt', value: 0 }, false],
    ['rowCount eq 2', { source: 'rowCount', operator: 'eq', value: 2 }, true],
    ['rowCount gte 3', { source: 'rowCount', operator: 'gte', value: 3 }, false],
    ['value eq PONG', { source: 'value', operator: 'eq', value: 'PONG' }, true],
    ['value notContains ERR', { source: 'value', operator: 'notContains', value: 'ERR' }, true],
  ])('%s → %s', (_name, assertion, ok) => {
    expect(one(assertion).ok).toBe(ok);
  });

  it.each<[Assertion['source'], AssertionOperator]>([
    ['body', 'eq'],
    ['dnsAnswer', 'contains'],
    ['packetLoss', 'lt'],
    ['rowCount', 'gte'],
    ['value', 'matches'],
    ['certificateDays', 'gt'],
  ])('fails %s %s when the check observed nothing, saying so', (source, operator) => {
    const outcome = one({ source, operator, value: '1' }, probe({}));
    expect(outcome).toMatchObject({ ok: false, actual: null });
    expect(outcome.error).toMatch(/failed: got nothing$/);
  });

  it.each<[Assertion['source'], AssertionOperator]>([
    ['body', 'notExists'],
    ['dnsAnswer', 'notExists'],
    ['value', 'notExists'],
  ])('holds %s %s when nothing was observed', (source, operator) => {
    expect(one({ source, operator }, probe({})).ok).toBe(true);
  });

  it('names the assertion and the value seen in its error', () => {
    expect(one({ source: 'jsonPath', path: '$.status', operator: 'eq', value: 'ok' })).toEqual({
      assertion: { source: 'jsonPath', path: '$.status', operator: 'eq', value: 'ok' },
      ok: false,
      actual: 'degraded',
      error: '$.status eq "ok" failed: got "degraded"',
    });
    expect(one({ source: 'status', operator: 'eq', value: 503 }).error).toBe('status eq 503 failed: got 200');
    expect(one({ source: 'header', path: 'X-Count', operator: 'lt', value: 10 }).error).toBe('header X-Count lt 10 failed: got "42"');
    expect(one({ source: 'jsonPath', path: '$.status', operator: 'gt', value: 1 }).error).toBe(
      '$.status gt 1 failed: got "degraded" (not a number)',
    );
    expect(one({ source: 'dnsAnswer', operator: 'eq', value: '1.1.1.1' }).error).toBe(
      'dnsAnswer eq "1.1.1.1" failed: got ["10.0.0.1", "10.0.0.2"]',
    );
  });

  it('reads a body that is not JSON as having no JSON value', () => {
    expect(one({ source: 'jsonPath', path: '$.a', operator: 'exists' }, probe({ body: 'not json' })).ok).toBe(false);
  });

  it('shortens long values in the error and the actual text', () => {
    const outcome = one({ source: 'body', operator: 'contains', value: 'zzz' }, probe({ body: 'x'.repeat(5000) }));
    expect(outcome.error!.length).toBeLessThan(200);
    expect(outcome.actual!.length).toBeLessThanOrEqual(1025);
  });

  it('stops a catastrophically backtracking pattern within its time limit instead of stalling', () => {
    const started = performance.now();
    const outcome = one({ source: 'body', operator: 'matches', value: '^(a+)+$' }, probe({ body: `${'a'.repeat(40)}!` }));
    expect(performance.now() - started).toBeLessThan(MATCH_TIME_LIMIT_MS * 20);
    expect(outcome.ok).toBe(false);
    expect(outcome.error).toContain(`took longer than ${MATCH_TIME_LIMIT_MS} ms`);
  });

  it('evaluates every assertion in order and reports the first failure', () => {
    const outcomes = evaluateAssertions(
      [
        { source: 'status', operator: 'eq', value: 200 },
        { source: 'jsonPath', path: '$.count', operator: 'gt', value: 5 },
        { source: 'body', operator: 'contains', value: 'missing' },
      ],
      SEEN,
    );
    expect(outcomes.map((o) => o.ok)).toEqual([true, false, false]);
    expect(firstFailure(outcomes)).toBe('$.count gt 5 failed: got 3');
    expect(firstFailure(outcomes.slice(0, 1))).toBeNull();
  });
});
