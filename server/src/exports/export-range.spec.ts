import { ApiException } from '../common/api-exception';
import { checkTier, exportRange, metricTier, reportMonth } from './export-range';

const NOW = new Date('2026-06-15T12:00:00.000Z');
const hoursAgo = (hours: number) => new Date(NOW.getTime() - hours * 3_600_000);
const KEPT = { rawHours: 48, hourlyDays: 400 };
const METRICS_KEPT = { 60: 48 * 3_600_000, 300: 30 * 86_400_000, 3600: 365 * 86_400_000 };

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    return ((error as ApiException).getResponse() as { code: string }).code;
  }
}

describe('the range of an export', () => {
  it('covers the last 24 hours when nothing is given', () => {
    expect(exportRange(undefined, undefined, NOW)).toEqual({ from: hoursAgo(24), to: NOW });
  });

  it('takes a day before `to` when only `to` is given', () => {
    expect(exportRange(undefined, '2026-01-02T00:00:00Z', NOW).from).toEqual(new Date('2026-01-01T00:00:00Z'));
  });

  it.each([
    ['to before from', '2026-01-02T00:00:00Z', '2026-01-01T00:00:00Z', 'exports.rangeInvalid'],
    ['to equal to from', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', 'exports.rangeInvalid'],
    ['367 days', '2025-01-01T00:00:00Z', '2026-01-03T00:00:00Z', 'exports.rangeTooLong'],
  ])('refuses %s', (_, from, to, code) => {
    expect(codeOf(() => exportRange(from, to, NOW))).toBe(code);
  });

  it('accepts exactly 366 days', () => {
    expect(codeOf(() => exportRange('2025-01-01T00:00:00Z', '2026-01-02T00:00:00Z', NOW))).toBeUndefined();
  });
});

describe('the tier that answers a monitor export', () => {
  it.each([
    ['auto', 47, 'raw'],
    ['auto', 49, 'hourly'],
    ['auto', 24 * 500, 'hourly'],
    ['raw', 48.5, 'raw'],
    ['hourly', 1, 'hourly'],
    ['daily', 24 * 390, 'daily'],
  ] as const)('%s from %d hours ago is %s', (asked, hours, tier) => {
    expect(checkTier(asked, hoursAgo(hours), NOW, KEPT)).toBe(tier);
  });

  it.each([
    ['raw', 50],
    ['hourly', 24 * 402],
    ['daily', 24 * 402],
  ] as const)('refuses %s from %d hours ago: not kept that far back', (asked, hours) => {
    expect(codeOf(() => checkTier(asked, hoursAgo(hours), NOW, KEPT))).toBe('exports.tierNotKept');
  });
});

describe('the tier that answers an agent export', () => {
  it.each([
    ['auto', 2, 60],
    ['auto', 72, 300],
    ['auto', 24 * 40, 3600],
    ['3600', 1, 3600],
  ] as const)('%s from %d hours ago is the %d-second tier', (asked, hours, tier) => {
    expect(metricTier(asked, hoursAgo(hours), NOW, METRICS_KEPT)).toBe(tier);
  });

  it('refuses the 1-minute tier three days back', () => {
    expect(codeOf(() => metricTier('60', hoursAgo(72), NOW, METRICS_KEPT))).toBe('exports.tierNotKept');
  });
});

describe('the month of a report', () => {
  it('runs from the first of the month to the first of the next, UTC', () => {
    expect(reportMonth('2026-02', NOW, 400)).toEqual({
      month: '2026-02',
      from: new Date('2026-02-01T00:00:00Z'),
      to: new Date('2026-03-01T00:00:00Z'),
    });
  });

  it('ends the current month now', () => {
    expect(reportMonth('2026-06', NOW, 400).to).toEqual(NOW);
  });

  it.each([
    ['2026-6', 'reports.monthInvalid'],
    ['2026-13', 'reports.monthInvalid'],
    ['2026-07', 'reports.monthInvalid'],
    ['2025-04', 'reports.monthNotKept'],
  ])('refuses %s', (month, code) => {
    expect(codeOf(() => reportMonth(month, NOW, 400))).toBe(code);
  });
});
