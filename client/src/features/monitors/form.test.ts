import { describe, expect, it } from 'vitest';
import { makeMonitor } from '../../test/monitors';
import {
  defaultFormValues,
  formValuesFromMonitor,
  methodHasBody,
  type MonitorFormValues,
  toMonitorRequest,
  validateMonitorForm,
} from './form';

const valid = (overrides: Partial<MonitorFormValues> = {}): MonitorFormValues => ({
  ...defaultFormValues(),
  name: 'API',
  url: 'https://example.com/health',
  ...overrides,
});

describe('monitor form rules', () => {
  it('starts with GET, 1 minute, 30 seconds, 200 and one blank header row', () => {
    expect(defaultFormValues()).toMatchObject({
      method: 'GET',
      interval: '1',
      timeout: '30',
      expectedStatus: 200,
      headers: [{ name: '', value: '' }],
      retries: '1',
      retryInterval: '20',
    });
  });

  it.each([
    ['GET', false],
    ['POST', true],
    ['PUT', true],
    ['PATCH', true],
    ['DELETE', false],
    ['HEAD', false],
  ] as const)('shows the body field for %s: %s', (method, shown) => {
    expect(methodHasBody(method)).toBe(shown);
  });

  it('accepts a complete form', () => {
    expect(validateMonitorForm(valid())).toEqual({});
  });

  it.each<[string, string, string | undefined]>([
    ['empty (never degraded)', '', undefined],
    ['a whole number under the timeout', '1500', undefined],
    ['not a number', '1.5s', 'degradedAfter'],
    ['zero', '0', 'degradedAfter'],
    ['at the 30 s timeout', '30000', 'degradedAfter'],
  ])('checks the degraded threshold: %s', (_case, degradedAfterMs, error) => {
    expect(validateMonitorForm(valid({ degradedAfterMs })).degradedAfterMs).toBe(error);
  });

  it('sends the dependencies and the degraded threshold (null when empty), and reads them back from a monitor', () => {
    const dependsOn = [
      { type: 'monitor' as const, id: 4 },
      { type: 'agent' as const, id: 2 },
    ];
    expect(toMonitorRequest(valid({ dependsOn, degradedAfterMs: ' 800 ' }))).toMatchObject({ dependsOn, degradedAfterMs: 800 });
    expect(toMonitorRequest(valid())).toMatchObject({ dependsOn: [], degradedAfterMs: null });
    expect(formValuesFromMonitor(makeMonitor({ depends_on: dependsOn, degraded_after_ms: 2500 }))).toMatchObject({
      dependsOn,
      degradedAfterMs: '2500',
    });
  });

  it('refuses more dependencies than the server keeps', () => {
    const dependsOn = Array.from({ length: 21 }, (_, id) => ({ type: 'monitor' as const, id: id + 1 }));
    expect(validateMonitorForm(valid({ dependsOn })).dependsOn).toBe('dependsOnTooMany');
  });

  it.each<[string, Partial<MonitorFormValues>, Record<string, string>]>([
    ['a blank name', { name: '   ' }, { name: 'nameRequired' }],
    ['a name over 100 characters', { name: 'x'.repeat(101) }, { name: 'nameTooLong' }],
    ['a blank url', { url: '' }, { url: 'urlRequired' }],
    ['a url without http(s)', { url: 'ftp://example.com' }, { url: 'urlInvalid' }],
    ['a url that is not one', { url: 'example.com' }, { url: 'urlInvalid' }],
    ['a non-numeric interval (read as 0)', { interval: 'abc' }, { interval: 'intervalMin' }],
    ['an interval of 0 minutes', { interval: '0' }, { interval: 'intervalMin' }],
    ['an interval over a day', { interval: '1441' }, { interval: 'intervalMax' }],
    ['a timeout of 0', { timeout: '0' }, { timeout: 'timeoutMin' }],
    ['a non-numeric timeout', { timeout: 'soon' }, { timeout: 'timeoutMin' }],
    ['a timeout over 300 seconds', { interval: '10', timeout: '301' }, { timeout: 'timeoutMax' }],
    ['a timeout as long as the interval', { interval: '1', timeout: '60' }, { timeout: 'timeoutBelowInterval' }],
    [
      'a header name with a space',
      {
        headers: [
          { name: 'X Bad', value: '1' },
          { name: '', value: '' },
        ],
      },
      { headers: 'headersInvalid' },
    ],
    ['retries above 10', { retries: '11' }, { retries: 'retries' }],
    ['non-numeric retries', { retries: 'x' }, { retries: 'retries' }],
    ['a retry interval under 10 seconds', { retryInterval: '5' }, { retryInterval: 'retryInterval' }],
    ['a body over 64 KB for POST', { method: 'POST', body: 'x'.repeat(64 * 1024 + 1) }, { body: 'bodyTooLarge' }],
    ['a redis write command', { type: 'redis', connectionString: 'redis://cache', query: 'SET k v' }, { query: 'redisCommand' }],
  ])('rejects %s', (_name, overrides, errors) => {
    expect(validateMonitorForm(valid(overrides))).toEqual(errors);
  });

  it.each<[string, Partial<MonitorFormValues>, number, Record<string, string>]>([
    ['10 seconds where the server allows 10', { interval: '10', intervalUnit: 'seconds', timeout: '5' }, 10, {}],
    ['10 seconds where the server allows 20', { interval: '10', intervalUnit: 'seconds', timeout: '5' }, 20, { interval: 'intervalMin' }],
    ['9 seconds', { interval: '9', intervalUnit: 'seconds', timeout: '5' }, 10, { interval: 'intervalMin' }],
    ['20 seconds with a 20 s timeout', { interval: '20', intervalUnit: 'seconds', timeout: '20' }, 10, { timeout: 'timeoutBelowInterval' }],
    ['86,401 seconds', { interval: '86401', intervalUnit: 'seconds' }, 10, { interval: 'intervalMax' }],
  ])('judges an interval of %s against the server’s floor', (_name, overrides, intervalMin, errors) => {
    expect(validateMonitorForm(valid(overrides), { intervalMin })).toEqual(errors);
  });

  it('sends an interval given in seconds as seconds, and keeps a 20 s monitor at 20 s when edited', () => {
    expect(toMonitorRequest(valid({ interval: '20', intervalUnit: 'seconds', timeout: '16' })).interval).toBe(20);
    const values = formValuesFromMonitor(makeMonitor({ interval: 20, timeout: 16 }));
    expect(values).toMatchObject({ interval: '20', intervalUnit: 'seconds' });
    expect(toMonitorRequest(values).interval).toBe(20);
    expect(formValuesFromMonitor(makeMonitor({ interval: 120 }))).toMatchObject({ interval: '2', intervalUnit: 'minutes' });
  });

  it('accepts a redis read command, and any SQL for the SQL databases', () => {
    expect(validateMonitorForm(valid({ type: 'redis', connectionString: 'redis://cache', query: 'GET "a key"' }))).toEqual({});
    expect(validateMonitorForm(valid({ type: 'postgres', connectionString: 'postgres://db/app', query: 'SET x = 1' }))).toEqual({});
  });

  it('ignores an oversized body for a method that does not send one', () => {
    expect(validateMonitorForm(valid({ method: 'GET', body: 'x'.repeat(64 * 1024 + 1) }))).toEqual({});
  });

  it('sends the interval in seconds, trimmed texts, header object and no body for GET', () => {
    const request = toMonitorRequest(
      valid({
        name: '  API ',
        interval: '5',
        timeout: '10',
        expectedStatus: 2,
        headers: [
          { name: ' X-Token ', value: 'abc' },
          { name: '', value: 'dropped' },
          { name: '', value: '' },
        ],
        body: 'kept only for POST',
      }),
    );
    expect(request).toEqual({
      type: 'http',
      name: 'API',
      url: 'https://example.com/health',
      maxRedirects: 5,
      ignoreTls: false,
      certExpiryDays: [14],
      assertions: [],
      method: 'GET',
      interval: 300,
      timeout: 10,
      expectedStatus: 2,
      headers: { 'X-Token': 'abc' },
      body: null,
      retries: 1,
      retryInterval: 20,
      dependsOn: [],
      degradedAfterMs: null,
      description: null,
      tags: [],
      upsideDown: false,
      locations: ['server'],
      quorum: 'any',
      quorumMin: null,
    });
  });

  it.each([
    ['POST', '{"a":1}', '{"a":1}'],
    ['PATCH', 'x', 'x'],
    ['PUT', '', null],
    ['DELETE', 'x', null],
  ] as const)('sends the body for %s %j as %j', (method, body, sent) => {
    expect(toMonitorRequest(valid({ method, body })).body).toBe(sent);
  });

  it('fills the edit form from a stored monitor, an interval that is not whole minutes in seconds', () => {
    const values = formValuesFromMonitor(
      makeMonitor({
        interval: 150,
        timeout: 12,
        expected_status: 3,
        headers: { Accept: 'json' },
        body: null,
        method: 'HEAD',
        retries: 3,
        retry_interval: 45,
      }),
    );
    expect(values).toMatchObject({
      interval: '150',
      intervalUnit: 'seconds',
      timeout: '12',
      expectedStatus: 3,
      method: 'HEAD',
      body: '',
      headers: [
        { name: 'Accept', value: 'json' },
        { name: '', value: '' },
      ],
      retries: '3',
      retryInterval: '45',
    });
  });
});
