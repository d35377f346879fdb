import {
  SUMMARY_HISTORY_SLOTS,
  type MonitorCheckedEvent,
  type MonitorDto,
  type MonitorsChangedEvent,
  type MonitorStatusChangedEvent,
} from '@vigil/proto';
import { create } from 'zustand';
import { type MonitorListQuery, monitorsApi } from './api';
import { countsAfterChange, countsAfterTransition, EMPTY_COUNTS, matchesListQuery, type MonitorCounts, withCheck, withRead } from './live';

/** Rows per page of the monitor list: small enough to render instantly, whatever the number of monitors. */
export const MONITORS_PAGE_SIZE = 50;
/** How soon after a create/edit/delete push the page is re-read, so rows and counts match the server again. */
export const RESYNC_DELAY_MS = 1000;

type LoadStatus = 'idle' | 'loading' | 'ready' | 'error';

export interface MonitorListState {
  monitors: MonitorDto[];
  /** Monitors matching the query, over every page. */
  total: number;
  /** Over every monitor, whatever the query: the summary cards' numbers. */
  counts: MonitorCounts;
  query: MonitorListQuery;
  status: LoadStatus;
  error: unknown;
  /** A request is on its way (also a quiet one). */
  fetching: boolean;
  /**
   * Loads the page for the query changed by `patch`. `keepRows` leaves the current rows on screen until the answer
   * lands (paging, filtering); `quiet` does too and, for background refreshes, also keeps them when the call fails.
   */
  load: (patch?: Partial<MonitorListQuery>, options?: { quiet?: boolean; keepRows?: boolean }) => Promise<void>;
  remove: (id: number) => Promise<void>;
  applyChecked: (event: MonitorCheckedEvent) => void;
  applyStatusChanged: (event: MonitorStatusChangedEvent) => void;
  applyChange: (event: MonitorsChangedEvent) => void;
}

/**
 * A store for one page of monitors with its counts, kept live by pushes. Two screens use one each (the list and the
 * dashboard), with their own page size.
 */
export function createMonitorListStore(pageSize: number) {
  let sequence = 0;
  let resyncTimer: ReturnType<typeof setTimeout> | null = null;
  /** Ids whose deletion has been counted, so the HTTP answer and the push do not both count it. */
  const deleted = new Set<number>();

  return create<MonitorListState>()((set, get) => {
    function scheduleResync(): void {
      if (resyncTimer !== null || get().status !== 'ready') return;
      resyncTimer = setTimeout(() => {
        resyncTimer = null;
        void get().load({}, { quiet: true });
      }, RESYNC_DELAY_MS);
    }

    function forget(monitor: MonitorDto): void {
      if (deleted.has(monitor.id)) return;
      deleted.add(monitor.id);
      const { monitors, total, counts } = get();
      const present = monitors.some((row) => row.id === monitor.id);
      set({
        monitors: present ? monitors.filter((row) => row.id !== monitor.id) : monitors,
        total: present ? Math.max(0, total - 1) : total,
        counts: countsAfterChange(counts, { action: 'deleted', monitor }) ?? counts,
      });
    }

    return {
      monitors: [],
      total: 0,
      counts: EMPTY_COUNTS,
      query: { page: 1, pageSize, filter: 'all', search: '' },
      status: 'idle',
      error: null,
      fetching: false,

      async load(patch = {}, { quiet = false, keepRows = false } = {}) {
        const query = { ...get().query, ...patch, pageSize };
        // Only the latest request may land: a slow answer for an old filter must not overwrite a newer one.
        const ticket = ++sequence;
        const keep = (quiet || keepRows) && get().status === 'ready';
        set(keep ? { query, fetching: true } : { query, fetching: true, status: 'loading', error: null });
        try {
          const response = await monitorsApi.list(query);
          if (ticket !== sequence) return;
          // A page emptied by deletions elsewhere falls back to the last page that still has rows.
          const lastPage = Math.max(1, Math.ceil(response.total / pageSize));
          if (response.monitors.length === 0 && query.page > lastPage) return get().load({ page: lastPage }, { quiet, keepRows });
          deleted.clear();
          const held = new Map(get().monitors.map((row) => [row.id, row]));
          const monitors = response.monitors.map((row) => withRead(held.get(row.id) ?? null, row));
          set({ monitors, total: response.total, counts: response.counts, status: 'ready', error: null, fetching: false });
        } catch (error) {
          if (ticket !== sequence) return;
          set(quiet && get().status === 'ready' ? { fetching: false } : { status: 'error', error, fetching: false });
        }
      },

      async remove(id) {
        await monitorsApi.remove(id);
        const monitor = get().monitors.find((row) => row.id === id);
        if (monitor) forget(monitor);
        // The next page's first row moves up into the freed place.
        scheduleResync();
      },

      applyChecked(event) {
        const { monitors, status } = get();
        if (status !== 'ready') return;
        const index = monitors.findIndex((row) => row.id === event.monitorId);
        if (index < 0) return;
        const next = withCheck(monitors[index], event, { history: SUMMARY_HISTORY_SLOTS, checks: 0 });
        if (next !== monitors[index]) set({ monitors: monitors.with(index, next) });
      },

      applyStatusChanged(event) {
        const { monitors, counts, status } = get();
        if (status !== 'ready') return;
        const index = monitors.findIndex((row) => row.id === event.monitorId);
        const known = index >= 0 ? monitors[index] : undefined;
        set({
          counts: countsAfterTransition(counts, event, known),
          monitors: known && known.status !== event.status ? monitors.with(index, { ...known, status: event.status }) : monitors,
        });
      },

      applyChange(event) {
        const { monitors, counts, total, query, status } = get();
        if (status !== 'ready') return;
        if (event.action === 'deleted') {
          forget(event.monitor);
          scheduleResync();
          return;
        }
        const index = monitors.findIndex((row) => row.id === event.monitor.id);
        const previous = index >= 0 ? monitors[index] : undefined;
        const nextCounts = countsAfterChange(counts, event, previous);
        const belongs = matchesListQuery(event.monitor, query.filter, query.search);
        if (previous) {
          set({ counts: nextCounts ?? counts, monitors: monitors.with(index, { ...event.monitor, checks: previous.checks }) });
        } else if (event.action === 'created' && belongs) {
          // Rows are ordered by id, so a new monitor belongs at the end of the last page.
          const onLastPage = query.page >= Math.ceil(total / pageSize);
          const fits = monitors.length < pageSize;
          set({ counts: nextCounts ?? counts, total: total + 1, monitors: onLastPage && fits ? [...monitors, event.monitor] : monitors });
        } else {
          set({ counts: nextCounts ?? counts });
        }
        // Filter membership, totals and counts the push could not settle are re-read from the server.
        scheduleResync();
      },
    };
  });
}

/** The monitor list page: one page of monitors for the chosen filter and search, with counts. */
export const useMonitorsStore = createMonitorListStore(MONITORS_PAGE_SIZE);

/** Monitors shown on the dashboard (spec section 9). */
export const DASHBOARD_MONITORS = 3;

/** The dashboard: the first monitors as cards and the counts of the summary card. */
export const useDashboardMonitorsStore = createMonitorListStore(DASHBOARD_MONITORS);
