import { describe, expect, it } from 'vitest';
import { makeAlert } from '../../test/alerts';
import { activeMute, alertDurationSeconds, alertStamp, futureIsoOf, matchesQuery, muteUntil } from './live';

const NOW = Date.parse('2025-03-01T12:00:00.000Z');

describe('alert rules on screen', () => {
  it('dates an alert by its newest change: acknowledgement, closing or a later message', () => {
    const alert = makeAlert();
    expect(alertStamp(alert)).toBe('2025-03-01T10:00:02.000Z');
    expect(alertStamp({ ...alert, acknowledged_at: '2025-03-01T10:30:00.000Z' })).toBe('2025-03-01T10:30:00.000Z');
    const reminder = { ...alert.messages[0], id: 99, created_at: '2025-03-01T11:00:00.000Z', sent_at: null };
    expect(alertStamp({ ...alert, messages: [reminder, ...alert.messages] })).toBe('2025-03-01T11:00:00.000Z');
    expect(alertStamp({ ...alert, closed_at: '2025-03-01T11:30:00.000Z' })).toBe('2025-03-01T11:30:00.000Z');
  });

  it.each([
    [{ state: 'all', kind: 'all' }, true],
    [{ state: 'open', kind: 'all' }, true],
    [{ state: 'acknowledged', kind: 'all' }, false],
    [{ state: 'all', kind: 'agent' }, false],
    [{ state: 'all', kind: 'monitor', targetId: 5 }, true],
    [{ state: 'all', kind: 'monitor', targetId: 6 }, false],
  ] as const)('an open monitor alert on monitor 5 matches %o: %s', (query, expected) => {
    expect(matchesQuery(makeAlert(), query)).toBe(expected);
  });

  it('counts an open alert up to now and a closed one up to its closing', () => {
    expect(alertDurationSeconds(makeAlert(), NOW)).toBe(2 * 3600);
    expect(alertDurationSeconds(makeAlert({ closed_at: '2025-03-01T10:15:00.000Z' }), NOW)).toBe(15 * 60);
  });

  it('treats a mute in the past as no mute', () => {
    expect(activeMute(muteUntil(1, NOW), NOW)).toBe('2025-03-01T13:00:00.000Z');
    expect(activeMute('2025-03-01T11:59:59.000Z', NOW)).toBeNull();
    expect(activeMute(null, NOW)).toBeNull();
  });

  it('accepts only a future time for muting until a chosen time', () => {
    const future = new Date(NOW + 3_600_000);
    const local = (date: Date) =>
      `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}T${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`;
    expect(futureIsoOf(local(future), NOW)).toBe(future.toISOString());
    expect(futureIsoOf(local(new Date(NOW - 60_000)), NOW)).toBeNull();
    expect(futureIsoOf('', NOW)).toBeNull();
    expect(futureIsoOf('not a time', NOW)).toBeNull();
  });
});
