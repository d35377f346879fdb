import {
  type CheckDto,
  type CheckResponse,
  DETAIL_HISTORY_POINTS,
  type MonitorCheckedEvent,
  type MonitorDto,
  type MonitorsChangedEvent,
  type MonitorStatusChangedEvent,
} from '@vigil/proto';
import { create } from 'zustand';
import { ApiError } from '../../api/http';
import { monitorsApi } from './api';
import { withCheck, withRead, withStatus } from './live';

/** Checks the detail read carries (newest first), kept as pushes arrive. */
export const DETAIL_CHECKS = 50;
/** Rows per page of the history tab. */
export const CHECKS_PAGE_SIZE = 20;

type LoadStatus = 'idle' | 'loading' | 'ready' | 'error';

interface ChecksPage {
  checks: CheckDto[];
  total: number;
  page: number;
  status: LoadStatus;
  error: unknown;
}

export interface MonitorDetailState {
  id: number | null;
  monitor: MonitorDto | null;
  /** `missing`: the server says the monitor does not exist. */
  status: LoadStatus | 'missing';
  error: unknown;
  /** Deleted (here or elsewhere) while shown; the monitor stays in state for the page to decide what to show. */
  removed: boolean;
  checks: ChecksPage;
  load: (id: number, options?: { quiet?: boolean }) => Promise<void>;
  loadChecks: (page: number, options?: { quiet?: boolean }) => Promise<void>;
  /** Takes the monitor from a pause, resume or save answer, which carries a shorter history and no checks. */
  applyResponse: (monitor: MonitorDto) => void;
  applyCheckResult: (result: Pick<CheckResponse, 'check' | 'monitor'>) => void;
  applyChecked: (event: MonitorCheckedEvent) => void;
  applyStatusChanged: (event: MonitorStatusChangedEvent) => void;
  applyChange: (event: MonitorsChangedEvent) => void;
}

const EMPTY_CHECKS: ChecksPage = { checks: [], total: 0, page: 1, status: 'idle', error: null };

function withFirstCheck(page: ChecksPage, check: CheckDto): ChecksPage {
  if (page.status !== 'ready' || page.checks.some((row) => row.id === check.id)) return page;
  // Only the first page shows the newest checks; later pages just grow one row longer in total.
  const checks = page.page === 1 ? [check, ...page.checks].slice(0, CHECKS_PAGE_SIZE) : page.checks;
  return { ...page, checks, total: page.total + 1 };
}

let sequence = 0;
let checksSequence = 0;

/** The monitor on the detail page: its read (last 40 points, newest 50 checks) and the history tab's page of checks. */
export const useMonitorDetailStore = create<MonitorDetailState>()((set, get) => ({
  id: null,
  monitor: null,
  status: 'idle',
  error: null,
  removed: false,
  checks: EMPTY_CHECKS,

  async load(id, { quiet = false } = {}) {
    const ticket = ++sequence;
    const same = get().id === id;
    if (!same) set({ id, monitor: null, status: 'loading', error: null, removed: false, checks: EMPTY_CHECKS });
    else if (!quiet) set({ status: 'loading', error: null });
    try {
      const { monitor } = await monitorsApi.get(id);
      if (ticket === sequence) set({ monitor: withRead(get().monitor, monitor), status: 'ready', error: null, removed: false });
    } catch (error) {
      if (ticket !== sequence) return;
      if (error instanceof ApiError && error.status === 404) set({ status: 'missing', error });
      else if (!quiet || get().status !== 'ready') set({ status: 'error', error });
    }
  },

  async loadChecks(page, { quiet = false } = {}) {
    const id = get().id;
    if (id === null) return;
    const ticket = ++checksSequence;
    if (!quiet) set({ checks: { ...get().checks, page, status: 'loading', error: null } });
    try {
      const response = await monitorsApi.checks(id, page, CHECKS_PAGE_SIZE);
      if (ticket !== checksSequence || get().id !== id) return;
      set({ checks: { checks: response.checks, total: response.total, page, status: 'ready', error: null } });
    } catch (error) {
      if (ticket !== checksSequence) return;
      if (!quiet || get().checks.status !== 'ready') set({ checks: { ...get().checks, status: 'error', error } });
    }
  },

  applyResponse(monitor) {
    const current = get().monitor;
    if (!current || current.id !== monitor.id) return;
    set({ monitor: { ...monitor, history: current.history, checks: current.checks } });
  },

  applyCheckResult({ check, monitor }) {
    if (get().id !== monitor.id) return;
    set({ monitor: withRead(get().monitor, monitor), status: 'ready', checks: withFirstCheck(get().checks, check) });
  },

  applyChecked(event) {
    const { monitor, checks } = get();
    if (!monitor || monitor.id !== event.monitorId) return;
    set({
      monitor: withCheck(monitor, event, { history: DETAIL_HISTORY_POINTS, checks: DETAIL_CHECKS }),
      checks: withFirstCheck(checks, event.check),
    });
  },

  applyStatusChanged(event) {
    const { monitor } = get();
    if (monitor && monitor.id === event.monitorId) set({ monitor: withStatus(monitor, event) });
  },

  applyChange({ action, monitor }) {
    const current = get().monitor;
    if (!current || current.id !== monitor.id) return;
    if (action === 'deleted') set({ removed: true });
    // Settings, active flag and status come from the push; the longer history and the checks stay.
    else set({ monitor: { ...monitor, history: current.history, checks: current.checks } });
  },
}));
