import { describe, expect, it } from 'vitest';
import i18n from '../../i18n';
import { makeAgent } from '../../test/agents';
import {
  barColor,
  detailStatus,
  formatBytes,
  formatLoad,
  formatPercent,
  formatRate,
  formatSpan,
  listStatus,
  networkPercent,
  percentOf,
  spanBetween,
  spanOfSeconds,
  usage,
} from './format';

const english = i18n.getFixedT('en-US');
const chinese = i18n.getFixedT('zh-CN');
const inEnglish = (unit: 'days' | 'hours' | 'minutes', count: number) => english(`agent.duration.${unit}`, { count });

describe('agent status', () => {
  it.each([
    ['active', 'active'],
    ['connecting', 'connecting'],
    ['inactive', 'inactive'],
    ['retired', 'inactive'],
    ['', 'inactive'],
  ])('lists %j as %s', (status, shown) => {
    expect(listStatus(status)).toBe(shown);
  });

  it.each([
    ['active', 'active'],
    ['connecting', 'inactive'],
    ['inactive', 'inactive'],
  ])('shows %s on the detail page as %s (online only when active)', (status, shown) => {
    expect(detailStatus(status)).toBe(shown);
  });
});

describe('resource bar colour', () => {
  it.each([
    [0, 'green'],
    [49.9, 'green'],
    [50, 'yellow'],
    [74.9, 'yellow'],
    [75, 'red'],
    [100, 'red'],
    [null, 'gray'],
  ])('is %s → %s', (percent, color) => {
    expect(barColor(percent)).toBe(color);
  });
});

describe('percentages', () => {
  it.each([
    [12.34, '12.3%'],
    [12.35, '12.3%'],
    [99.96, '100.0%'],
    [140, '100.0%'],
    [-3, '0.0%'],
    [null, '-'],
    [Number.NaN, '-'],
  ])('formats %s as %s', (value, text) => {
    expect(formatPercent(value)).toBe(text);
  });

  it('computes used over total, and nothing for a zero or unknown total', () => {
    expect(percentOf(2, 8)).toBe(25);
    expect(percentOf(2, 0)).toBeNull();
    expect(percentOf(null, 8)).toBeNull();
    expect(percentOf(9, 8)).toBe(100);
  });

  it("gives an agent's CPU, memory and disk bars", () => {
    expect(usage(makeAgent({ cpu_usage: 12.34 }))).toEqual({ cpu: 12.34, memory: 25, disk: 80 });
    expect(usage(makeAgent({ cpu_usage: null, memory_total: null, disk_total: 0 }))).toEqual({ cpu: null, memory: null, disk: null });
  });
});

describe('network bars', () => {
  it.each([
    [0, 0],
    [25.6, 0.5],
    [512, 10],
    [5120, 100],
    [9999, 100],
  ])('fills %s KB/s as %s%', (rate, percent) => {
    expect(networkPercent(rate)).toBeCloseTo(percent, 6);
  });

  it.each([
    [0, '0.0 KB/s'],
    [12.34, '12.3 KB/s'],
    [1023.9, '1023.9 KB/s'],
    [1024, '1.0 MB/s'],
    [1536, '1.5 MB/s'],
    [null, '-'],
  ])('shows %s KB/s as %s', (rate, text) => {
    expect(formatRate(rate)).toBe(text);
  });
});

describe('sizes and loads', () => {
  it.each([
    [512, '512 B'],
    [1536, '1.5 KB'],
    [8 * 1024 ** 3, '8.0 GB'],
    [null, '-'],
  ])('formats %s bytes as %s', (bytes, text) => {
    expect(formatBytes(bytes)).toBe(text);
  });

  it('shows the three load averages, or a dash when the host has none', () => {
    expect(formatLoad({ load1: 0.5, load5: 0.25, load15: 1 })).toBe('0.50 / 0.25 / 1.00');
    expect(formatLoad({ load1: null, load5: null, load15: null })).toBe('-');
  });
});

describe('uptime span', () => {
  it.each([
    ['2025-03-01T08:00:00Z', '2025-03-01T08:00:59Z', { days: 0, hours: 0, minutes: 0 }, '0m'],
    ['2025-03-01T08:00:00Z', '2025-03-01T08:05:00Z', { days: 0, hours: 0, minutes: 5 }, '5m'],
    ['2025-03-01T08:00:00Z', '2025-03-01T10:05:30Z', { days: 0, hours: 2, minutes: 5 }, '2h 5m'],
    ['2025-03-01T08:00:00Z', '2025-03-04T12:07:00Z', { days: 3, hours: 4, minutes: 7 }, '3d 4h 7m'],
    ['2025-03-01T08:00:00Z', '2025-03-02T08:03:00Z', { days: 1, hours: 0, minutes: 3 }, '1d 0h 3m'],
    ['2025-03-02T08:00:00Z', '2025-03-01T08:00:00Z', { days: 0, hours: 0, minutes: 0 }, '0m'],
    ['not a date', '2025-03-01T08:00:00Z', { days: 0, hours: 0, minutes: 0 }, '0m'],
  ])('from %s to %s is %o, shown as %s', (from, to, span, text) => {
    expect(spanBetween(from, to)).toEqual(span);
    expect(formatSpan(spanBetween(from, to), inEnglish)).toBe(text);
  });

  it('reads in Chinese too', () => {
    expect(formatSpan(spanOfSeconds(90_061), (unit, count) => chinese(`agent.duration.${unit}`, { count }))).toBe('1 天 1 小时 1 分钟');
  });
});
