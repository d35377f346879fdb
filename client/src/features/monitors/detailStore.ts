import {
  type CheckDto,
  type CheckResponse,
  DETAIL_HISTORY_POINTS,
  SUMMARY_HISTORY_SLOTS,
  type MonitorCheckedEvent,
  type MonitorDto,
  type MonitorsChangedEvent,
} from '@vigil/proto';
import { create } from 'zustand';
import { liveCache } from '../../live/cache';
import { type DetailRead, followRow, loadDetail } from '../../live/detail';
import type { LoadStatus } from '../../live/liveList';
import { latestRequest } from '../../live/request';
import { monitorsApi } from './api';
import { type KeptPoints, withSettings } from './live';

/** Checks the detail read carries (newest first), kept as pushes arrive. */
export const DETAIL_CHECKS = 50;
/** The detail page's view in the cache. */
const VIEW = 'monitor-detail';

/** Points a pushed check leaves in the cache: the detail page's for the monitor it shows, the lists' otherwise. */
export function keptPoints(id: number): KeptPoints {
  return liveCache.monitors.ids(VIEW).includes(id)
    ? { history: DETAIL_HISTORY_POINTS, checks: DETAIL_CHECKS }
    : { history: SUMMARY_HISTORY_SLOTS, checks: 0 };
}

/** Rows per page of the history tab. */
export const CHECKS_PAGE_SIZE = 20;

interface ChecksPage {
  checks: CheckDto[];
  total: number;
  page: number;
  status: LoadStatus;
  error: unknown;
}

export interface MonitorDetailState {
  id: number | null;
  /** The cache's row for `id` once read. */
  monitor: MonitorDto | null;
  /** `missing`: the server says the monitor does not exist. */
  status: LoadStatus | 'missing';
  error: unknown;
  /** Deleted (here or elsewhere) while shown; the monitor stays in state for the page to decide what to show. */
  removed: boolean;
  checks: ChecksPage;
  load: (id: number, options?: { quiet?: boolean; signal?: AbortSignal }) => Promise<void>;
  loadChecks: (page: number, options?: { quiet?: boolean }) => Promise<void>;
  /** Takes the monitor from a pause, resume or save answer, which carries a shorter history and no checks. */
  applyResponse: (monitor: MonitorDto) => void;
  applyCheckResult: (result: Pick<CheckResponse, 'check' | 'monitor'>) => void;
  /** A pushed check joins the history tab's first page (the cache takes it into the monitor). */
  applyChecked: (event: MonitorCheckedEvent) => void;
  /** Flags a monitor deleted while shown (the cache takes edits). */
  applyChange: (event: MonitorsChangedEvent) => void;
}

const EMPTY_CHECKS: ChecksPage = { checks: [], total: 0, page: 1, status: 'idle', error: null };

function withFirstCheck(page: ChecksPage, check: CheckDto): ChecksPage {
  if (page.status !== 'ready' || page.checks.some((row) => row.id === check.id)) return page;
  // Only the first page shows the newest checks; later pages just grow one row longer in total.
  const checks = page.page === 1 ? [check, ...page.checks].slice(0, CHECKS_PAGE_SIZE) : page.checks;
  return { ...page, checks, total: page.total + 1 };
}

const table = liveCache.monitors;
const request = latestRequest();
const checksRequest = latestRequest();

/** The monitor on the detail page: its read (last 40 points, newest 50 checks) and the history tab's page of checks. */
export const useMonitorDetailStore = create<MonitorDetailState>()((set, get) => {
  const detail: DetailRead<MonitorDto> = {
    table,
    view: VIEW,
    request,
    read: async (id, signal) => (await monitorsApi.get(id, signal)).monitor,
    current: () => ({ id: get().id, status: get().status, row: get().monitor }),
    switchTo(id) {
      checksRequest.abort();
      set({ id, monitor: null, status: 'loading', error: null, removed: false, checks: EMPTY_CHECKS });
    },
    set: ({ row, ...patch }) => set(row === undefined ? patch : { ...patch, monitor: row }),
  };
  followRow(detail);

  return {
    id: null,
    monitor: null,
    status: 'idle',
    error: null,
    removed: false,
    checks: EMPTY_CHECKS,

    load: (id, options) => loadDetail(detail, id, options),

    async loadChecks(page, { quiet = false } = {}) {
      const id = get().id;
      if (id === null) return;
      const ticket = checksRequest.start();
      if (!quiet) set({ checks: { ...get().checks, page, status: 'loading', error: null } });
      try {
        const response = await monitorsApi.checks(id, page, CHECKS_PAGE_SIZE, ticket.signal);
        if (!ticket.current || get().id !== id) return;
        set({ checks: { checks: response.checks, total: response.total, page, status: 'ready', error: null } });
      } catch (error) {
        if (!ticket.current) return;
        if (!quiet || get().checks.status !== 'ready') set({ checks: { ...get().checks, status: 'error', error } });
      } finally {
        ticket.end();
      }
    },

    applyResponse(monitor) {
      if (get().id === monitor.id) table.patch(monitor.id, (held) => withSettings(held, monitor));
    },

    applyCheckResult({ check, monitor }) {
      if (get().id !== monitor.id) return;
      table.write([monitor]);
      set({ status: 'ready', checks: withFirstCheck(get().checks, check) });
    },

    applyChecked(event) {
      if (get().id === event.monitorId) set({ checks: withFirstCheck(get().checks, event.check) });
    },

    applyChange({ action, monitor }) {
      if (action === 'deleted' && get().id === monitor.id && get().monitor) set({ removed: true });
    },
  };
});
