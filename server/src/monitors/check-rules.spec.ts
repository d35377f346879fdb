import { matchesExpectedStatus, nextOnRhythm, spreadOffsetMs, uptimePercent } from './check-rules';

describe('matchesExpectedStatus', () => {
  it.each([
    [200, 200, true],
    [200, 201, false],
    [2, 200, true],
    [2, 204, true],
    [2, 299, true],
    [2, 301, false],
    [3, 302, true],
    [4, 404, true],
    [4, 500, false],
    [5, 503, true],
    [404, 404, true],
    [204, 200, false],
  ])('expected %s, got %s → %s', (expected, code, result) => {
    expect(matchesExpectedStatus(expected, code)).toBe(result);
  });
});

describe('nextOnRhythm', () => {
  it.each([
    [0, 60_000, 30_000, 60_000],
    [0, 60_000, 60_000, 120_000],
    [0, 60_000, 61_000, 120_000],
    [5_000, 60_000, 3_605_000, 3_665_000],
    [90_000, 60_000, 30_000, 90_000],
  ])('anchor %s every %s at %s → %s', (anchor, interval, now, next) => {
    expect(nextOnRhythm(anchor, interval, now)).toBe(next);
  });
});

describe('spreadOffsetMs', () => {
  it('spreads consecutive monitors over the whole interval', () => {
    const offsets = Array.from({ length: 600 }, (_, i) => spreadOffsetMs(i + 1, 60_000));
    expect(offsets.every((o) => o >= 0 && o < 60_000)).toBe(true);
    const buckets = new Set(offsets.map((o) => Math.floor(o / 6_000)));
    expect(buckets.size).toBe(10);
  });
});

describe('uptimePercent', () => {
  it.each([
    [0, 0, 100],
    [10, 10, 100],
    [0, 10, 0],
    [1, 3, 33.33],
    [2, 3, 66.67],
    [999, 1000, 99.9],
    [11, 10, 100],
    [-1, 10, 0],
  ])('%s of %s → %s', (up, checks, percent) => {
    expect(uptimePercent(up, checks)).toBe(percent);
  });
});
