import { daysRemaining, EXPIRED, expiryStep, expiryThresholds, fingerprintKey, registrationKey } from './expiry-rules';

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
    ['a domain setting’s texts, as numbers', ['7', '30', '14', 'x'], [30, 14, 7]],
  ])('%s', (_case, days, expected) => {
    expect(expiryThresholds(days)).toEqual(expected);
  });

  it('falls back to the given default when unset', () => {
    expect(expiryThresholds(undefined, [7, 30, 14])).toEqual([30, 14, 7]);
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

describe('registrationKey', () => {
  const expiresAt = new Date('2027-03-01T00:00:00Z');
  it('is one key per domain and expiry: a renewal (a later expiry) is another registration', () => {
    expect(registrationKey('example.com', expiresAt)).toMatch(/^[0-9a-f]{64}$/);
    expect(registrationKey('example.com', new Date(expiresAt))).toBe(registrationKey('example.com', expiresAt));
    expect(registrationKey('example.com', new Date('2028-03-01T00:00:00Z'))).not.toBe(registrationKey('example.com', expiresAt));
    expect(registrationKey('example.net', expiresAt)).not.toBe(registrationKey('example.com', expiresAt));
  });
});

describe('expiryStep with thresholds [21, 14, 7]', () => {
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
    expect(expiryStep(days, thresholds, passed)).toEqual({ marks, announce });
  });

  it('announces nothing but the expiry for a monitor without thresholds', () => {
    expect(expiryStep(3, [], true)).toEqual({ marks: [], announce: null });
    expect(expiryStep(-1, [], true)).toEqual({ marks: [EXPIRED], announce: EXPIRED });
  });
});

describe('expiryStep for a domain with its settings’ thresholds (30, 14, 7), which always tells the expiry', () => {
  const thresholds = expiryThresholds(['30', '14', '7']);
  it.each([
    ['45 days: nothing crossed', 45, [], null],
    ['30 days: the first threshold', 30, [30], 30],
    ['20 days', 20, [30], 30],
    ['14 days', 14, [30, 14], 14],
    ['first seen 5 days out: all crossed, only 7 announced', 5, [30, 14, 7], 7],
    ['expired: the expiry, though the check is down', -1, [30, 14, 7, EXPIRED], EXPIRED],
  ])('%s', (_case, days, marks, announce) => {
    expect(expiryStep(days, thresholds, true)).toEqual({ marks, announce });
  });
});
