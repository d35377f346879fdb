import { itemRank, type PublicAgent, type WallData, type WallMonitor } from '@vigil/proto';
import type { TFunction } from 'i18next';

export type WallTile = { kind: 'monitor'; item: WallMonitor } | { kind: 'agent'; item: PublicAgent };

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

/** "2/3 locations failing" for a monitor checked from several places while any of them fails; null otherwise. */
export function locationsFailing(t: TFunction, tile: WallTile): string | null {
  if (tile.kind !== 'monitor') return null;
  const { locations_failing: failing, locations_total: total } = tile.item;
  return failing && total ? t('wall.locationsFailing', { failing, total }) : null;
}

/** How many items need attention (anything not up or online). */
export function problemCount(data: Pick<WallData, 'monitors' | 'agents'>): number {
  let count = 0;
  for (const item of data.monitors) if (item.status !== 'up') count += 1;
  for (const item of data.agents) if (item.status !== 'active') count += 1;
  return count;
}

/**
 * How the wall fits any number of tiles on any screen without scrolling: the columns, rows and tile size that give
 * the largest tiles inside the area. Tiles are at most three times wider than tall and never taller than wide; as
 * items grow they shrink, losing their text until, at thousands, they are small coloured squares.
 */
export type TileLevel = 'full' | 'compact' | 'dot';

export interface WallLayout {
  columns: number;
  rows: number;
  /** Pixels, floored to 1/100 so rounding never pushes the last tile out of the area. */
  tileWidth: number;
  tileHeight: number;
  gap: number;
  /** What a tile this size shows: name, status and figures; the name only; or just its colour. */
  level: TileLevel;
}

const MAX_ASPECT = 3;
/** Below these a tile cannot hold its text legibly. */
const FULL_MIN = { width: 140, height: 64 };
const COMPACT_MIN = { width: 60, height: 22 };

/** Gaps narrow as items grow, so the tiles keep most of the area. */
export function gapFor(count: number): number {
  if (count <= 24) return 12;
  if (count <= 200) return 8;
  if (count <= 1000) return 4;
  if (count <= 5000) return 2;
  return 1;
}

export function levelFor(width: number, height: number): TileLevel {
  if (width >= FULL_MIN.width && height >= FULL_MIN.height) return 'full';
  if (width >= COMPACT_MIN.width && height >= COMPACT_MIN.height) return 'compact';
  return 'dot';
}

const floor2 = (value: number) => Math.floor(value * 100) / 100;

function fit(width: number, height: number, count: number, gap: number): WallLayout | null {
  let best: WallLayout | null = null;
  let bestArea = 0;
  let previousRows = 0;
  for (let columns = 1; columns <= count; columns += 1) {
    const rows = Math.ceil(count / columns);
    // More columns for the same rows only narrows the cells.
    if (rows === previousRows) continue;
    previousRows = rows;
    const cellWidth = (width - (columns - 1) * gap) / columns;
    const cellHeight = (height - (rows - 1) * gap) / rows;
    if (cellWidth <= 0) break;
    if (cellHeight <= 0) continue;
    const tileHeight = Math.min(cellHeight, cellWidth);
    const tileWidth = Math.min(cellWidth, tileHeight * MAX_ASPECT);
    const area = tileWidth * tileHeight;
    if (area > bestArea) {
      bestArea = area;
      best = { columns, rows, tileWidth: floor2(tileWidth), tileHeight: floor2(tileHeight), gap, level: 'full' };
    }
  }
  return best;
}

export function wallLayout(width: number, height: number, count: number): WallLayout {
  const empty: WallLayout = { columns: 0, rows: 0, tileWidth: 0, tileHeight: 0, gap: 0, level: 'full' };
  if (!(count > 0) || !(width > 0) || !(height > 0)) return empty;
  let layout = fit(width, height, count, gapFor(count));
  // So many items that gaps would leave (almost) no tile: drop the gaps. Without gaps every count fits.
  if (!layout || layout.tileHeight < 3) layout = fit(width, height, count, 0) ?? empty;
  return { ...layout, level: levelFor(layout.tileWidth, layout.tileHeight) };
}
