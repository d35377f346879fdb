import type { MonitorDto, MonitorsChangedEvent, MonitorStatusChangedEvent } from '@vigil/proto';
import { liveCache } from '../../live/cache';
import { createLiveList } from '../../live/liveList';
import { type MonitorListQuery, monitorsApi } from './api';
import { countsAfterChange, countsAfterTransition, EMPTY_COUNTS, matchesListQuery, type MonitorCounts } from './live';

/** Rows per page of the monitor list: small enough to render instantly, whatever the number of monitors. */
export const MONITORS_PAGE_SIZE = 50;
/** How soon after a create/edit/delete push the page is re-read, so rows and counts match the server again. */
export const RESYNC_DELAY_MS = 1000;

function countsAfterMembership(counts: MonitorCounts, monitor: MonitorDto, delta: 1 | -1): MonitorCounts {
  return countsAfterChange(counts, { action: delta > 0 ? 'created' : 'deleted', monitor }) ?? counts;
}

/**
 * A store for one page of monitors with its counts, kept live by pushes. Two screens use one each (the list and the
 * dashboard), with their own page size; the rows themselves are the cache's.
 */
export function createMonitorListStore(pageSize: number, view?: string) {
  const table = liveCache.monitors;
  return createLiveList(
    {
      table,
      view,
      query: { page: 1, pageSize, filter: 'all', type: 'all', status: 'all', search: '' } as MonitorListQuery,
      counts: EMPTY_COUNTS,
      fetch: async (query, signal) => {
        const response = await monitorsApi.list(query, signal);
        return { rows: response.monitors, total: response.total, counts: response.counts };
      },
      destroy: (id) => monitorsApi.remove(id),
      matches: (monitor, query) => matchesListQuery(monitor, query),
      countsAfter: countsAfterMembership,
      resyncDelayMs: RESYNC_DELAY_MS,
    },
    // Counts and membership are the list's; the rows' own changes are written to the cache by the realtime module.
    (list) => ({
      /** A transition moves the counts, also for monitors on other pages. */
      applyStatusChanged(event: MonitorStatusChangedEvent) {
        if (list.ready()) list.setCounts(countsAfterTransition(list.state().counts, event, table.get(event.monitorId)));
      },

      /** A create, edit or delete; `previous` is the cached monitor before the push (unknown when not cached). */
      applyChange(event: MonitorsChangedEvent, previous = table.get(event.monitor.id)) {
        if (!list.ready()) return list.missed();
        if (event.action === 'deleted') list.deleted(event.monitor);
        else if (event.action === 'created') list.created(event.monitor);
        else list.setCounts(countsAfterChange(list.state().counts, event, previous) ?? list.state().counts);
        // Filter membership, totals and counts the push could not settle are re-read from the server.
        list.resyncSoon();
      },
    }),
  );
}

/** The monitor list page: one page of monitors for the chosen filter and search, with counts. */
export const useMonitorsStore = createMonitorListStore(MONITORS_PAGE_SIZE, 'monitors');

/** Monitors shown on the dashboard (spec section 9). */
export const DASHBOARD_MONITORS = 3;

/** The dashboard: the first monitors as cards and the counts of the summary card. */
export const useDashboardMonitorsStore = createMonitorListStore(DASHBOARD_MONITORS, 'dashboard-monitors');
