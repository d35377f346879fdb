import { itemRank, type PublicAgent, type PublicMonitor, type WallData } from '@vigil/proto';

export type WallTile = { kind: 'monitor'; item: PublicMonitor } | { kind: 'agent'; item: PublicAgent };

/**
 * Monitors and agents on one board, problems first: down and offline, then pending and connecting, then the healthy
 * ones; within each, monitors before agents, in the (name) order the store keeps.
 */
export function wallTiles(data: Pick<WallData, 'monitors' | 'agents'>): WallTile[] {
  const tiles: WallTile[] = [
    ...data.monitors.map((item): WallTile => ({ kind: 'monitor', item })),
    ...data.agents.map((item): WallTile => ({ kind: 'agent', item })),
  ];
  // Array sort is stable, so the order within a rank is kept.
  return tiles.sort((a, b) => itemRank(a.item) - itemRank(b.item));
}

/** How many items need attention (anything not up or online). */
export function problemCount(data: Pick<WallData, 'monitors' | 'agents'>): number {
  let count = 0;
  for (const item of data.monitors) if (item.status !== 'up') count += 1;
  for (const item of data.agents) if (item.status !== 'active') count += 1;
  return count;
}
