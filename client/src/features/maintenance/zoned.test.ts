import { describe, expect, it } from 'vitest';
import { instantOfLocal, localInputOf, offsetMinutes, timeZones } from './zoned';

describe('wall-clock times in a zone', () => {
  it.each([
    ['UTC', '2025-06-01T09:00', '2025-06-01T09:00:00.000Z'],
    ['Europe/Berlin', '2025-01-15T09:00', '2025-01-15T08:00:00.000Z'],
    ['Europe/Berlin', '2025-07-15T09:00', '2025-07-15T07:00:00.000Z'],
    ['America/New_York', '2025-07-04T23:30', '2025-07-05T03:30:00.000Z'],
    ['Australia/Sydney', '2025-01-01T00:00', '2024-12-31T13:00:00.000Z'],
    ['Asia/Kolkata', '2028-02-29T12:00', '2028-02-29T06:30:00.000Z'],
  ])('reads %s %s as %s and shows it back', (zone, local, iso) => {
    expect(instantOfLocal(local, zone)).toBe(iso);
    expect(localInputOf(iso, zone)).toBe(local);
  });

  it('moves a time skipped by the spring change past the gap (02:30 Berlin on 30 March 2025 is 03:30)', () => {
    expect(instantOfLocal('2025-03-30T02:30', 'Europe/Berlin')).toBe('2025-03-30T01:30:00.000Z');
  });

  it('reads a time the autumn change repeats as one of its two instants', () => {
    const instant = instantOfLocal('2025-10-26T02:30', 'Europe/Berlin');
    expect(['2025-10-26T00:30:00.000Z', '2025-10-26T01:30:00.000Z']).toContain(instant);
    expect(localInputOf(instant, 'Europe/Berlin')).toBe('2025-10-26T02:30');
  });

  it('knows the offset on both sides of a change', () => {
    expect(offsetMinutes(Date.parse('2025-03-30T00:59:00Z'), 'Europe/Berlin')).toBe(60);
    expect(offsetMinutes(Date.parse('2025-03-30T01:00:00Z'), 'Europe/Berlin')).toBe(120);
  });

  it.each(['', '2025-13-01', '2025-01-01 09:00', 'soon'])('reads %j as no instant', (local) => {
    expect(instantOfLocal(local, 'UTC')).toBeNull();
  });

  it('offers UTC among the zones, sorted', () => {
    const zones = timeZones();
    expect(zones).toContain('UTC');
    expect(zones).toEqual([...zones].sort());
  });
});
