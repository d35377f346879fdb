import type { AgentStatusChangedEvent, DashboardResponse, MonitorStatusChangedEvent, StatusChange } from '@vigil/proto';
import { create } from 'zustand';
import type { LoadStatus } from '../../live/liveList';
import { latestRequest, settleLater } from '../../live/request';
import { countsAfterTransition as agentCountsAfter } from '../agents/live';
import { statusApi } from '../status/api';

export type DashboardSummary = DashboardResponse['dashboard'];

/** Entries of the dashboard's feed of status changes. */
export const FEED_LENGTH = 10;
/** A burst of pushes is settled by one read of the summary this long after its first push. */
export const SETTLE_DELAY_MS = 300;

interface DashboardState {
  summary: DashboardSummary | null;
  status: LoadStatus;
  error: unknown;
  load: (options?: { quiet?: boolean; signal?: AbortSignal }) => Promise<void>;
  applyMonitorStatusChanged: (event: MonitorStatusChangedEvent) => void;
  applyAgentStatusChanged: (event: AgentStatusChangedEvent) => void;
  /** Monitors or agents were added, edited or removed: the counts are read again. */
  applyMembershipChanged: () => void;
}

const request = latestRequest();

function shift<T extends Record<string, number>>(counts: T, from: keyof T, to: keyof T): T {
  if (from === to || !(from in counts) || !(to in counts)) return counts;
  return { ...counts, [from]: Math.max(0, counts[from] - 1), [to]: counts[to] + 1 };
}

/**
 * The dashboard's summary (`GET /api/dashboard`): monitor and agent counts, 24 h uptime and response time, and the
 * feed of the last status changes. Transitions patch the counts and the feed at once, then one read settles them
 * (paused monitors, uptime) for the whole burst.
 */
export const useDashboardStore = create<DashboardState>()((set, get) => {
  const settle = settleLater(SETTLE_DELAY_MS, () => void get().load({ quiet: true }));
  function settleSoon(): void {
    if (get().status === 'ready') settle.schedule();
  }

  function withChange(summary: DashboardSummary, change: StatusChange, patch: Partial<DashboardSummary>): DashboardSummary {
    return { ...summary, ...patch, recent_changes: [change, ...summary.recent_changes].slice(0, FEED_LENGTH) };
  }

  return {
    summary: null,
    status: 'idle',
    error: null,

    async load({ quiet = false, signal } = {}) {
      // This read settles whatever a pending one was waiting for.
      settle.cancel();
      const ticket = request.start(signal);
      const keep = quiet && get().status === 'ready';
      if (!keep) set({ status: 'loading', error: null });
      try {
        const response = await statusApi.dashboard(ticket.signal);
        if (ticket.current) set({ summary: response.dashboard, status: 'ready', error: null });
      } catch (error) {
        if (ticket.current && !keep) set({ status: 'error', error });
      } finally {
        ticket.end();
      }
    },

    applyMonitorStatusChanged(event) {
      const { summary, status } = get();
      if (!summary || status !== 'ready') return;
      const change: StatusChange = {
        kind: 'monitor',
        id: event.monitorId,
        name: event.name,
        previous: event.previous,
        status: event.status,
        at: event.changed_at,
      };
      set({ summary: withChange(summary, change, { monitors: shift(summary.monitors, event.previous, event.status) }) });
      settleSoon();
    },

    applyAgentStatusChanged(event) {
      const { summary, status } = get();
      if (!summary || status !== 'ready') return;
      const change: StatusChange = {
        kind: 'agent',
        id: event.agentId,
        name: event.name,
        previous: event.previous,
        status: event.status,
        at: event.changed_at,
      };
      set({ summary: withChange(summary, change, { agents: agentCountsAfter(summary.agents, event) }) });
      settleSoon();
    },

    applyMembershipChanged() {
      settleSoon();
    },
  };
});
