import { type LocationStatus, type MonitorDto, type MonitorLocationDto, type QuorumRule, SERVER_LOCATION } from '@vigil/proto';
import { liveCache } from '../../live/cache';
import { monitorsApi } from './api';

/** A monitor's locations as its detail page shows them: a row of the cache, keyed by the monitor's id. */
export interface MonitorLocations {
  id: number;
  quorum: QuorumRule;
  quorum_min: number | null;
  locations: MonitorLocationDto[];
}

/** One colour per location status, as the monitor statuses have (unknown: grey, like a paused monitor). */
export const LOCATION_COLORS: Record<LocationStatus, string> = {
  up: 'green',
  degraded: 'orange',
  down: 'red',
  unknown: 'gray',
  pending: 'yellow',
};

/** Whether the detail page shows a monitor's locations: it is checked from more than one place, or from an agent. */
export function hasLocations(monitor: Pick<MonitorDto, 'locations'>): boolean {
  return monitor.locations.length > 1 || monitor.locations.some((location) => location !== SERVER_LOCATION);
}

const checkedAt = (location: MonitorLocationDto) => (location.checked_at ? Date.parse(location.checked_at) : Number.NEGATIVE_INFINITY);

/**
 * The locations after a pushed result: the location takes it unless it holds a newer one (an equal time is a new
 * standing of the same result, such as `unknown` when its agent went offline). A location the row does not list is
 * ignored: the monitor's locations changed, and the read that follows brings them.
 */
export function withLocation(row: MonitorLocations, pushed: MonitorLocationDto): MonitorLocations {
  const index = row.locations.findIndex((location) => location.location === pushed.location);
  if (index < 0 || checkedAt(row.locations[index]) > checkedAt(pushed)) return row;
  return { ...row, locations: row.locations.map((location, i) => (i === index ? pushed : location)) };
}

/** A read over what is held: the read's locations, each keeping a held result that is newer (pushed while it travelled). */
export function mergeLocations(held: MonitorLocations | undefined, read: MonitorLocations): MonitorLocations {
  if (!held) return read;
  const newer = new Map(held.locations.map((location) => [location.location, location]));
  return {
    ...read,
    locations: read.locations.map((location) => {
      const kept = newer.get(location.location);
      return kept && checkedAt(kept) > checkedAt(location) ? kept : location;
    }),
  };
}

/** The detail page's view in the cache. */
export const LOCATIONS_VIEW = 'monitor-locations';

/** Reads a monitor's locations into the cache, as the detail page's, keeping results pushed meanwhile. */
export async function loadLocations(id: number, signal: AbortSignal): Promise<void> {
  const { quorum, quorum_min, locations } = await monitorsApi.locations(id, signal);
  const table = liveCache.monitorLocations;
  table.write([mergeLocations(table.get(id), { id, quorum, quorum_min, locations })]);
  table.show(LOCATIONS_VIEW, [id]);
}
