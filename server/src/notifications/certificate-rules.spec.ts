import { certificateStep, daysRemaining, EXPIRED, expiryThresholds, fingerprintKey } from './certificate-rules';

const AT = new Date('2026-11-24T00:00:00Z');
const inDays = (days: number, hours = 0) => new Date(AT.getTime() + (days * 24 + hours) * 3_600_000);

describe('daysRemaining', () => {
  it.each([
    ['20 days and 23 hours left', inDays(20, 23), 20],
    ['exactly 14 days left', inDays(14), 14],
    ['an hour left', inDays(0, 1), 0],
    ['expired an hour ago', inDays(0, -1), -1],
    ['expired three days ago', inDays(-3), -3],
  ])('counts whole days, rounded down: %s → %i', (_case, expiresAt, expected) => {
    expect(daysRemaining(expiresAt, AT)).toBe(expected);
  });
});

describe('expiryThresholds', () => {
  it.each([
    ['unset: the default', undefined, [14]],
    ['largest first, each once', [7, 21, 14, 7], [21, 14, 7]],
    ['out of bounds and fractions are ignored', [0, -3, 400, 7.5, 30], [30]],
    ['none', [], []],
  ])('%s', (_case, days, expected) => {
    expect(expiryThresholds(days)).toEqual(expected);
  });
});

describe('fingerprintKey', () => {
  const hex = 'ab'.repeat(32);
  it('writes a SHA-256 fingerprint as 64 lower-case hex digits', () => {
    expect(fingerprintKey(hex.toUpperCase().match(/../g)!.join(':'))).toBe(hex);
  });
  it('hashes anything else into the same shape, stably', () => {
    expect(fingerprintKey('not a fingerprint')).toMatch(/^[0-9a-f]{64}$/);
    expect(fingerprintKey('not a fingerprint')).toBe(fingerprintKey('not a fingerprint'));
    expect(fingerprintKey('not a fingerprint')).not.toBe(fingerprintKey('another one'));
  });
});

describe('certificateStep with thresholds [21, 14, 7]', () => {
  const thresholds = [21, 14, 7];
  it.each([
    ['30 days: nothing crossed', 30, true, [], null],
    ['22 days: nothing crossed', 22, true, [], null],
    ['21 days: the first threshold', 21, true, [21], 21],
    ['20 days', 20, true, [21], 21],
    ['13 days: two crossed, the smaller announced', 13, true, [21, 14], 14],
    ['6 days: all crossed, only 7 announced', 6, true, [21, 14, 7], 7],
    ['6 days on a failing check: expiring is announced all the same', 6, false, [21, 14, 7], 7],
    ['1 day', 1, true, [21, 14, 7], 7],
    ['under a day: still expiring', 0, true, [21, 14, 7], 7],
    ['expired on a check that passed (ignores TLS errors): the expiry', -1, true, [21, 14, 7, EXPIRED], EXPIRED],
    ['expired long ago on a passing check', -40, true, [21, 14, 7, EXPIRED], EXPIRED],
    ['expired on a failing check: the down alert tells, the expiry stays unmarked', -1, false, [21, 14, 7], null],
  ])('%s', (_case, days, passed, marks, announce) => {
    expect(certificateStep(days, thresholds, passed)).toEqual({ marks, announce });
  });

  it('announces nothing but the expiry for a monitor without thresholds', () => {
    expect(certificateStep(3, [], true)).toEqual({ marks: [], announce: null });
    expect(certificateStep(-1, [], true)).toEqual({ marks: [EXPIRED], announce: EXPIRED });
  });
});
