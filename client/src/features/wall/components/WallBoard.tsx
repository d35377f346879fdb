import type { TFunction } from 'i18next';
import { type CSSProperties, memo, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { IconActivity, IconServer } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { formatPercent } from '../../agents/format';
import { formatResponseTime, formatUptime } from '../../monitors/format';
import { TYPE_ICONS } from '../../monitors/types/meta';
import { statusLabel } from '../../status/labels';
import { locationsFailing, type TileLevel, type WallTile, wallLayout } from '../board';
import classes from '../Wall.module.css';

/** The element's size in whole pixels, followed through ResizeObserver (and window resizes, where it is missing). */
function useBoxSize(): [React.RefObject<HTMLDivElement | null>, { width: number; height: number }] {
  const ref = useRef<HTMLDivElement | null>(null);
  const [size, setSize] = useState({ width: 0, height: 0 });
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => {
      const rect = element.getBoundingClientRect();
      const width = Math.floor(rect.width);
      const height = Math.floor(rect.height);
      setSize((current) => (current.width === width && current.height === height ? current : { width, height }));
    };
    measure();
    const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(measure) : null;
    observer?.observe(element);
    window.addEventListener('resize', measure);
    return () => {
      observer?.disconnect();
      window.removeEventListener('resize', measure);
    };
  }, []);
  return [ref, size];
}

/** The smaller of two sizes, kept within min and max. */
function clamp(byHeight: number, byWidth: number, min: number, max: number): number {
  return Math.round(Math.max(min, Math.min(max, byHeight, byWidth)));
}

/**
 * Failing locations first (cut last on a narrow tile), then uptime, response time and certificate days of a monitor;
 * resource use (or, without figures, the host) of an agent.
 */
function details(t: TFunction, tile: WallTile): string {
  if (tile.kind === 'monitor') {
    const { uptime, response_time, certificate_days } = tile.item;
    const figures = [
      locationsFailing(t, tile),
      t('monitor.overview.percent', { value: formatUptime(uptime) }),
      t('monitor.overview.ms', { value: formatResponseTime(response_time) }),
    ]
      .filter(Boolean)
      .join(' · ');
    if (typeof certificate_days !== 'number') return figures;
    const certificate =
      certificate_days < 0 ? t('monitor.certificate.expired') : t('monitor.certificate.days', { count: Math.floor(certificate_days) });
    return `${figures} · ${certificate}`;
  }
  const { cpu, memory, disk, hostname } = tile.item;
  if (cpu === null && memory === null && disk === null) return hostname;
  return (['cpu', 'memory', 'disk'] as const)
    .map((resource) => `${t(`agents.card.${resource}`)} ${formatPercent(tile.item[resource])}`)
    .join(' · ');
}

/** One item; memoised so a transition re-renders its own tile only (the store keeps other items' identity). */
const Tile = memo(function Tile({ tile, level }: { tile: WallTile; level: TileLevel }) {
  const { t } = useTranslation();
  // An offline agent behind a down dependency is drawn as unreachable, like a monitor in the same place.
  const shown = tile.kind === 'agent' && tile.item.unreachable && tile.item.status === 'inactive' ? 'unreachable' : tile.item.status;
  const status = tile.kind === 'agent' && shown === 'unreachable' ? t('agent.status.unreachable') : statusLabel(t, tile.kind, shown);
  const flapping = tile.kind === 'monitor' && tile.item.flapping === true;
  const Kind = tile.kind === 'agent' ? IconServer : tile.item.type ? TYPE_ICONS[tile.item.type] : IconActivity;
  const kindLabel = tile.kind === 'monitor' && tile.item.type ? t(`monitor.type.names.${tile.item.type}`) : t(`wall.kind.${tile.kind}`);
  const locations = locationsFailing(t, tile);
  return (
    <div
      className={classes.tile}
      data-level={level}
      data-status={shown}
      data-flapping={flapping || undefined}
      data-locations-failing={locations ? true : undefined}
      data-testid={`wall-${tile.kind}-${tile.item.id}`}
      title={[tile.item.name, status, flapping && t('monitor.flapping'), locations].filter(Boolean).join(' · ')}
    >
      {level !== 'dot' && <div className={classes.tileName}>{tile.item.name}</div>}
      {level === 'full' && (
        <div className={classes.tileMeta}>
          <Kind className={classes.tileIcon} aria-label={kindLabel} />
          <span className={classes.tileKind}>{status}</span>
          <span className={classes.tileDetails}>{details(t, tile)}</span>
        </div>
      )}
    </div>
  );
});

/**
 * Every monitor and agent as a tile, sized from the area and the count so they always fit without scrolling: large
 * named tiles for a few items, names only for hundreds, coloured squares for thousands.
 */
export function WallBoard({ tiles }: { tiles: readonly WallTile[] }) {
  const [ref, { width, height }] = useBoxSize();
  const layout = useMemo(() => wallLayout(width, height, tiles.length), [width, height, tiles.length]);
  const style = {
    gridTemplateColumns: `repeat(${layout.columns}, ${layout.tileWidth}px)`,
    gridAutoRows: `${layout.tileHeight}px`,
    gap: `${layout.gap}px`,
    // Large type, as the tile allows: about a dozen characters of the name fit its width.
    '--wall-name-size': `${clamp(layout.level === 'full' ? layout.tileHeight * 0.26 : layout.tileHeight * 0.5, layout.tileWidth / 10, 11, 44)}px`,
    '--wall-meta-size': `${clamp(layout.tileHeight * 0.13, layout.tileWidth / 22, 11, 20)}px`,
  } as CSSProperties;

  return (
    <div
      ref={ref}
      className={classes.board}
      data-testid="wall-board"
      data-level={layout.level}
      data-columns={layout.columns}
      data-rows={layout.rows}
    >
      {layout.columns > 0 && (
        <div className={classes.grid} style={style}>
          {tiles.map((tile) => (
            <Tile key={`${tile.kind}-${tile.item.id}`} tile={tile} level={layout.level} />
          ))}
        </div>
      )}
    </div>
  );
}
