import { describe, expect, it } from 'vitest';
import { makePublicAgent, makePublicMonitor } from '../../test/status';
import { problemCount, wallTiles } from './tiles';

describe('wall tiles', () => {
  const monitors = [
    makePublicMonitor({ id: 1, name: 'a-down', status: 'down' }),
    makePublicMonitor({ id: 2, name: 'b-pending', status: 'pending' }),
    makePublicMonitor({ id: 3, name: 'c-up', status: 'up' }),
  ];
  const agents = [
    makePublicAgent({ id: 1, name: 'x-offline', status: 'inactive' }),
    makePublicAgent({ id: 2, name: 'y-connecting', status: 'connecting' }),
    makePublicAgent({ id: 3, name: 'z-online', status: 'active' }),
  ];

  it('puts every problem before every healthy item, monitors before agents within a rank', () => {
    expect(wallTiles({ monitors, agents }).map((tile) => tile.item.name)).toEqual([
      'a-down',
      'x-offline',
      'b-pending',
      'y-connecting',
      'c-up',
      'z-online',
    ]);
  });

  it('counts what needs attention', () => {
    expect(problemCount({ monitors, agents })).toBe(4);
    expect(problemCount({ monitors: [], agents: [] })).toBe(0);
  });
});
