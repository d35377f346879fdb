import { describe, expect, it } from 'vitest';
import { overallStatus, problemRank } from '@vigil/proto';

describe('overall status', () => {
  it.each([
    [[], 'operational'],
    [['up', 'active'], 'operational'],
    [['up', 'pending'], 'degraded'],
    [['up', 'connecting'], 'degraded'],
    [['up', 'up', 'down'], 'degraded'],
    [['up', 'down'], 'outage'],
    [['inactive', 'down', 'up'], 'outage'],
    [['pending'], 'degraded'],
  ])('reads %j as %s', (statuses, expected) => {
    expect(overallStatus(statuses)).toBe(expected);
  });

  it.each([
    ['down', 0],
    ['inactive', 0],
    ['pending', 1],
    ['connecting', 1],
    ['odd', 1],
    ['up', 2],
    ['active', 2],
  ])('ranks %s as %i', (status, rank) => {
    expect(problemRank(status)).toBe(rank);
  });
});
