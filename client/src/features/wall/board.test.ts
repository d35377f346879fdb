import { describe, expect, it } from 'vitest';
import { makePublicAgent, makePublicMonitor } from '../../test/status';
import { levelFor, problemCount, wallLayout, wallTiles } from './board';

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

const screens = [
  [3840, 2160],
  [1920, 1080],
  [1280, 720],
  [1024, 768],
  [800, 600],
  [390, 844],
  [320, 200],
] as const;
const counts = [1, 2, 3, 7, 12, 25, 64, 150, 500, 1000, 2500, 5000, 10000, 20000];
const cases = screens.flatMap(([width, height]) => counts.map((count) => [width, height, count] as const));

describe('wall layout', () => {
  it.each(cases)('fits %i x %i with %i tiles: every tile inside, none too small to see', (width, height, count) => {
    const sut = wallLayout(width, height, count);
    expect(sut.columns * sut.rows).toBeGreaterThanOrEqual(count);
    // The last row may be partial, but no row or column is wholly empty.
    expect(sut.columns * (sut.rows - 1)).toBeLessThan(count);
    expect(sut.columns * sut.tileWidth + (sut.columns - 1) * sut.gap).toBeLessThanOrEqual(width);
    expect(sut.rows * sut.tileHeight + (sut.rows - 1) * sut.gap).toBeLessThanOrEqual(height);
    expect(sut.tileWidth).toBeGreaterThan(0);
    expect(sut.tileHeight).toBeGreaterThan(0);
    expect(sut.tileWidth).toBeLessThanOrEqual(sut.tileHeight * 3 + 0.01);
    expect(sut.tileHeight).toBeLessThanOrEqual(sut.tileWidth + 0.01);
  });

  it.each([
    [1920, 1080, 1, 'full'],
    [1920, 1080, 40, 'full'],
    [1920, 1080, 300, 'compact'],
    [1920, 1080, 10000, 'dot'],
    [3840, 2160, 1000, 'compact'],
    [390, 844, 5, 'full'],
    [390, 844, 400, 'dot'],
  ])('on %i x %i, %i tiles show as %s', (width, height, count, level) => {
    expect(wallLayout(width, height, count).level).toBe(level);
  });

  it('shrinks tiles as items grow', () => {
    const areas = [10, 100, 1000, 10000].map((count) => {
      const { tileWidth, tileHeight } = wallLayout(1920, 1080, count);
      return tileWidth * tileHeight;
    });
    expect(areas).toEqual([...areas].sort((a, b) => b - a));
    expect(new Set(areas).size).toBe(areas.length);
  });

  it.each([
    [1600, 900, 1600, 900],
    [1600, 400, 1200, 400],
    [400, 900, 400, 400],
  ])(
    'gives a single item on %i x %i one %i x %i tile: as big as the area allows, no wider than three times its height',
    (width, height, tileWidth, tileHeight) => {
      expect(wallLayout(width, height, 1)).toMatchObject({ columns: 1, rows: 1, tileWidth, tileHeight });
    },
  );

  it.each([
    [0, 600, 5],
    [800, 0, 5],
    [800, 600, 0],
    [Number.NaN, 600, 5],
  ])('lays out nothing for %i x %i with %i tiles', (width, height, count) => {
    expect(wallLayout(width, height, count)).toMatchObject({ columns: 0, rows: 0, tileWidth: 0 });
  });

  it.each([
    [200, 80, 'full'],
    [139, 80, 'compact'],
    [100, 30, 'compact'],
    [59, 59, 'dot'],
    [80, 20, 'dot'],
  ])('shows a %i x %i tile as %s', (width, height, level) => {
    expect(levelFor(width, height)).toBe(level);
  });
});
