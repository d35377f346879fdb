import { overallStatus, problemRank } from '@vigil/proto';

// The rule lives in proto (the client patches pushed screens with it too); the server serves what it decides.

describe('overall status', () => {
  it.each([
    [[], 'operational'],
    [['up'], 'operational'],
    [['up', 'active', 'up'], 'operational'],
    [['up', 'pending'], 'degraded'],
    [['active', 'connecting'], 'degraded'],
    [['up', 'up', 'down'], 'degraded'],
    [['up', 'down'], 'outage'],
    [['down'], 'outage'],
    [['inactive'], 'outage'],
    [['up', 'up', 'down', 'inactive'], 'outage'],
    [['up', 'up', 'up', 'down', 'inactive'], 'degraded'],
    [['pending', 'pending'], 'degraded'],
    [['down', 'pending', 'pending'], 'degraded'],
    [['down', 'inactive', 'pending', 'up'], 'outage'],
    [['up', 'degraded'], 'degraded'],
    [['degraded', 'degraded'], 'degraded'],
    [['up', 'unreachable'], 'outage'],
    [['up', 'up', 'unreachable'], 'degraded'],
    [['down', 'unreachable', 'up', 'up'], 'outage'],
    // Planned work counts with up in the three-value banner.
    [['maintenance'], 'operational'],
    [['up', 'maintenance', 'active'], 'operational'],
    [['maintenance', 'pending'], 'degraded'],
    [['maintenance', 'down'], 'outage'],
    [['maintenance', 'maintenance', 'down'], 'degraded'],
  ] as const)('%j → %s', (statuses, expected) => {
    expect(overallStatus(statuses)).toBe(expected);
  });

  it('ranks problems first', () => {
    expect(
      ['up', 'pending', 'maintenance', 'down', 'active', 'degraded', 'inactive', 'unreachable', 'connecting'].sort(
        (a, b) => problemRank(a as never) - problemRank(b as never),
      ),
    ).toEqual(['down', 'inactive', 'unreachable', 'pending', 'maintenance', 'degraded', 'connecting', 'up', 'active']);
  });
});
