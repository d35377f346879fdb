import type { LocationId, MonitorLocationDto } from '@vigil/proto';
import { describe, expect, it } from 'vitest';
import { makeMonitor } from '../../test/monitors';
import { defaultFormValues, type MonitorFormValues, toMonitorRequest, validateMonitorForm } from './form';
import { hasLocations, type MonitorLocations, mergeLocations, withLocation } from './locations';

function location(overrides: Partial<MonitorLocationDto> & { location: LocationId }): MonitorLocationDto {
  return {
    name: overrides.location,
    agent_id: null,
    status: 'up',
    response_time: 40,
    error: null,
    checked_at: '2025-03-01T10:00:00.000Z',
    uptime: 100,
    ...overrides,
  };
}

const row = (...locations: MonitorLocationDto[]): MonitorLocations => ({ id: 1, quorum: 'any', quorum_min: null, locations });

describe('monitor locations', () => {
  it.each([
    [['server'], false],
    [['agent:3'], true],
    [['server', 'agent:3'], true],
  ] as Array<[LocationId[], boolean]>)('shows the card for a monitor checked from %j: %s', (locations, shown) => {
    expect(hasLocations(makeMonitor({ locations }))).toBe(shown);
  });

  it('takes a pushed result unless the location holds a newer one, and ignores a location it does not list', () => {
    const held = row(location({ location: 'server' }), location({ location: 'agent:3', checked_at: '2025-03-01T10:01:00.000Z' }));
    const newer = location({ location: 'server', status: 'down', checked_at: '2025-03-01T10:02:00.000Z' });
    expect(withLocation(held, newer).locations[0]).toBe(newer);
    expect(withLocation(held, location({ location: 'agent:3', status: 'down' }))).toBe(held);
    // The same result, now unknown (its agent went offline).
    const unknown = location({ location: 'agent:3', status: 'unknown', checked_at: '2025-03-01T10:01:00.000Z' });
    expect(withLocation(held, unknown).locations[1]).toBe(unknown);
    expect(withLocation(held, location({ location: 'agent:9' }))).toBe(held);
  });

  it('lays a read over what is held: the read lists the locations, a newer pushed result is kept', () => {
    const pushed = location({ location: 'agent:3', status: 'down', checked_at: '2025-03-01T10:05:00.000Z' });
    const held = row(location({ location: 'server' }), pushed, location({ location: 'agent:4' }));
    const read = row(
      location({ location: 'server', status: 'degraded', checked_at: '2025-03-01T10:04:00.000Z' }),
      location({ location: 'agent:3', checked_at: '2025-03-01T10:04:00.000Z' }),
    );
    expect(mergeLocations(held, read).locations).toEqual([read.locations[0], pushed]);
    expect(mergeLocations(undefined, read)).toBe(read);
  });
});

describe('location fields of the monitor form', () => {
  const values = (overrides: Partial<MonitorFormValues>): MonitorFormValues => ({
    ...defaultFormValues(),
    name: 'Shop',
    url: 'https://shop.example.com',
    ...overrides,
  });
  const agents = (count: number) => Array.from({ length: count }, (_, index): LocationId => `agent:${index + 1}`);

  it.each([
    ['no location', { locations: [] }, { locations: 'locationsRequired' }],
    ['more than 20 locations', { locations: ['server', ...agents(20)] }, { locations: 'locationsTooMany' }],
    ['20 locations', { locations: agents(20) }, {}],
    ['at least N without N', { quorum: 'atLeast', quorumMin: '' }, { quorumMin: 'quorumMin' }],
    ['at least 0', { locations: agents(2), quorum: 'atLeast', quorumMin: '0' }, { quorumMin: 'quorumMin' }],
    ['at least 3 of 2', { locations: agents(2), quorum: 'atLeast', quorumMin: '3' }, { quorumMin: 'quorumMin' }],
    ['at least 2 of 2', { locations: agents(2), quorum: 'atLeast', quorumMin: '2' }, {}],
    ['a majority', { locations: agents(2), quorum: 'majority', quorumMin: 'x' }, {}],
    ['no location for a push monitor (checked by this server only)', { type: 'push', locations: [] }, {}],
  ] as Array<[string, Partial<MonitorFormValues>, object]>)('judges %s as the server does', (_case, overrides, expected) => {
    const errors = validateMonitorForm(values(overrides));
    expect({ locations: errors.locations, quorumMin: errors.quorumMin }).toEqual({
      locations: undefined,
      quorumMin: undefined,
      ...expected,
    });
  });

  it('sends all of them, the quorum only, or none', () => {
    const form = values({ locations: ['server', 'agent:3'], quorum: 'atLeast', quorumMin: '2' });
    expect(toMonitorRequest(form)).toMatchObject({ locations: ['server', 'agent:3'], quorum: 'atLeast', quorumMin: 2 });
    const quorumOnly = toMonitorRequest(form, 'quorum');
    expect(quorumOnly).toMatchObject({ quorum: 'atLeast', quorumMin: 2 });
    expect(quorumOnly).not.toHaveProperty('locations');
    const none = toMonitorRequest(form, 'none');
    expect(none).not.toHaveProperty('locations');
    expect(none).not.toHaveProperty('quorum');
  });
});
