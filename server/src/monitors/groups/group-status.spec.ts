import type { GroupRule, MonitorStatus } from '@vigil/proto';
import { groupStatus, groupSummary } from './group-status';

describe('groupStatus', () => {
  it.each<[string, GroupRule, number | null, MonitorStatus[], MonitorStatus]>([
    ['an empty group is up', 'any', null, [], 'up'],
    ['every member up: up', 'any', null, ['up', 'up'], 'up'],
    ['any: one member down makes it down', 'any', null, ['up', 'down'], 'down'],
    ['any: an unreachable member counts as down', 'any', null, ['up', 'unreachable'], 'down'],
    ['a degraded member and none down: degraded', 'any', null, ['up', 'degraded'], 'degraded'],
    ['a pending member and none down: pending', 'any', null, ['up', 'pending'], 'pending'],
    ['pending yields to down', 'any', null, ['pending', 'down'], 'down'],
    ['degraded wins over pending', 'any', null, ['pending', 'degraded'], 'degraded'],
    ['all: one of two down is degraded', 'all', null, ['up', 'down'], 'degraded'],
    ['all: every member down makes it down', 'all', null, ['down', 'unreachable'], 'down'],
    ['all: one down and one pending is degraded, not pending', 'all', null, ['pending', 'down'], 'degraded'],
    ['atLeast 2: one down is degraded', 'atLeast', 2, ['up', 'up', 'down'], 'degraded'],
    ['atLeast 2: two down is down', 'atLeast', 2, ['up', 'down', 'down'], 'down'],
    ['atLeast more than the members: all of them down is down', 'atLeast', 5, ['down', 'down'], 'down'],
    ['atLeast more than the members: short of all is degraded', 'atLeast', 5, ['down', 'up'], 'degraded'],
    ['a single member group follows its member', 'all', null, ['down'], 'down'],
    ['members in maintenance are left out: the rest decide', 'all', null, ['maintenance', 'down'], 'down'],
    ['a member in maintenance is no failure', 'any', null, ['maintenance', 'up'], 'up'],
    ['every member in maintenance: maintenance', 'any', null, ['maintenance', 'maintenance'], 'maintenance'],
  ])('%s', (_, rule, min, members, expected) => {
    expect(groupStatus({ rule, min, members }).status).toBe(expected);
  });

  it('is in maintenance while a window covers the group itself, whatever its members say', () => {
    expect(groupStatus({ rule: 'any', min: null, members: ['down', 'up'], maintenance: true }).status).toBe('maintenance');
    expect(groupStatus({ rule: 'any', min: null, members: [], maintenance: true }).status).toBe('maintenance');
  });

  it('counts down and unreachable members for the message', () => {
    const sut = groupStatus({ rule: 'any', min: null, members: ['down', 'unreachable', 'up'] });
    expect(groupSummary(sut)).toBe('2 of 3 members down');
  });
});
