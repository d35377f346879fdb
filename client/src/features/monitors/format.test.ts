import { describe, expect, it } from 'vitest';
import {
  clampUptime,
  displayStatus,
  expectedStatusLabel,
  expectedStatusOptions,
  formatDateTime,
  formatResponseTime,
  formatUptime,
  minutesToSeconds,
  parseWholeNumber,
  secondsToMinutes,
} from './format';

describe('monitor formatting', () => {
  it.each([
    [1, 60],
    [5, 300],
    [1440, 86_400],
  ])('sends %i minutes as %i seconds', (minutes, seconds) => {
    expect(minutesToSeconds(minutes)).toBe(seconds);
  });

  it.each([
    [60, 1],
    [90, 1],
    [119, 1],
    [120, 2],
    [86_400, 1440],
    [30, 0],
    [0, 0],
    [Number.NaN, 0],
  ])('shows a stored interval of %s seconds as %i minutes (rounded down)', (seconds, minutes) => {
    expect(secondsToMinutes(seconds)).toBe(minutes);
  });

  it.each([
    ['5', 5],
    [' 12 ', 12],
    ['abc', 0],
    ['1.5', 0],
    ['-3', 0],
    ['', 0],
    ['2e3', 0],
  ])('reads the typed number %j as %i', (text, value) => {
    expect(parseWholeNumber(text)).toBe(value);
  });

  it.each([
    [99.956, '99.96'],
    [100, '100.00'],
    [100.4, '100.00'],
    [250, '100.00'],
    [-3, '0.00'],
    [0, '0.00'],
    [12.3, '12.30'],
    [null, '-'],
    [Number.NaN, '-'],
  ])('shows uptime %s as %s', (value, text) => {
    expect(formatUptime(value)).toBe(text);
  });

  it('clamps uptime to 0..100 without rounding', () => {
    expect([clampUptime(101), clampUptime(-1), clampUptime(55.555)]).toEqual([100, 0, 55.555]);
  });

  it.each([
    [123.6, '124'],
    [0, '0'],
    [null, '-'],
  ])('shows a response time of %s as %s', (value, text) => {
    expect(formatResponseTime(value)).toBe(text);
  });

  it.each([
    [2, '2xx'],
    [3, '3xx'],
    [4, '4xx'],
    [5, '5xx'],
    [200, '200'],
    [404, '404'],
  ])('labels expected status %i as %s', (value, label) => {
    expect(expectedStatusLabel(value)).toBe(label);
  });

  it('offers the four classes, then the listed codes', () => {
    expect(expectedStatusOptions().map((option) => option.label)).toEqual([
      '2xx',
      '3xx',
      '4xx',
      '5xx',
      '200',
      '201',
      '204',
      '301',
      '302',
      '304',
      '400',
      '401',
      '403',
      '404',
      '500',
      '502',
      '503',
      '504',
    ]);
    expect(expectedStatusOptions()[0]).toEqual({ value: '2', label: '2xx' });
  });

  it('keeps a stored code that is not among the listed ones', () => {
    expect(expectedStatusOptions(418).at(-1)).toEqual({ value: '418', label: '418' });
    expect(expectedStatusOptions(200)).toHaveLength(18);
  });

  it.each([
    [{ active: true, status: 'up' as const }, 'up'],
    [{ active: true, status: 'down' as const }, 'down'],
    [{ active: true, status: 'pending' as const }, 'pending'],
    [{ active: true, status: 'degraded' as const }, 'degraded'],
    [{ active: true, status: 'unreachable' as const }, 'unreachable'],
    [{ active: false, status: 'unreachable' as const }, 'paused'],
    [{ active: false, status: 'up' as const }, 'paused'],
    [{ active: true, status: 'weird' as never }, 'pending'],
  ])('shows %o as %s', (monitor, status) => {
    expect(displayStatus(monitor)).toBe(status);
  });

  it('shows a missing or unreadable time as "-"', () => {
    expect(formatDateTime(null, 'en-US')).toBe('-');
    expect(formatDateTime('not a date', 'en-US')).toBe('-');
    expect(formatDateTime('2025-01-02T03:04:05Z', 'en-US')).toMatch(/2025/);
  });
});
