import { IncidentImpact, pageOverall, statusCounts } from '@vigil/proto';

// The rule lives in proto (overall.ts) beside the spec's banner; a page keeps counts, so it is decided from counts.
const items = (statuses: string[], paused: string[] = []) => [
  ...statuses.map((status) => ({ status, active: true })),
  ...paused.map((status) => ({ status, active: false })),
];

describe('a status page banner', () => {
  it.each<[string[], IncidentImpact[], string]>([
    [[], [], 'operational'],
    [['up', 'active'], [], 'operational'],
    [['up', 'maintenance'], [], 'maintenance'],
    [['maintenance'], [], 'maintenance'],
    [['maintenance', 'degraded'], [], 'degraded'],
    [['maintenance', 'pending'], [], 'degraded'],
    [['maintenance', 'up', 'down'], [], 'degraded'],
    [['maintenance', 'down'], [], 'outage'],
    [['up', 'degraded'], [], 'degraded'],
    [['up', 'up', 'unreachable'], [], 'degraded'],
    [['up', 'unreachable'], [], 'outage'],
    [['active', 'inactive'], [], 'outage'],
    [['up', 'connecting'], [], 'degraded'],
    [['up'], ['none'], 'operational'],
    [['up'], ['minor'], 'degraded'],
    [['up'], ['major'], 'outage'],
    [['up'], ['critical'], 'outage'],
    [['up', 'maintenance'], ['none'], 'maintenance'],
    [['up', 'maintenance'], ['minor'], 'degraded'],
    [['up', 'down', 'up'], ['minor'], 'degraded'],
    [['down'], ['minor'], 'outage'],
    [['up', 'degraded'], ['minor', 'critical'], 'outage'],
    [[], ['major'], 'outage'],
  ])('%j with incidents %j → %s', (statuses, impacts, expected) => {
    expect(pageOverall(statusCounts(items(statuses)), impacts)).toBe(expected);
  });

  it('leaves paused monitors out, as the spec page does', () => {
    expect(pageOverall(statusCounts(items(['up'], ['down', 'down'])))).toBe('operational');
    expect(statusCounts(items(['up', 'up'], ['down']))).toEqual({ up: 2 });
  });
});
