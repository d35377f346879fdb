import type { AgentDto, AgentMetricPoint, AgentMetricsRange, AgentReportedEvent, AgentsChangedEvent } from '@vigil/proto';
import { create } from 'zustand';
import { liveCache } from '../../live/cache';
import { type DetailRead, followRow, loadDetail } from '../../live/detail';
import type { LoadStatus } from '../../live/liveList';
import { latestRequest } from '../../live/request';
import { agentsApi } from './api';

/** The range whose chart grows with every report; longer ranges are buckets of 5 minutes or more, read again instead. */
export const LIVE_RANGE: AgentMetricsRange = '1h';
const LIVE_WINDOW_MS = 3_600_000;

export interface AgentMetrics {
  range: AgentMetricsRange;
  /** Bucket width in seconds, as the server answered. */
  step: number;
  /** Oldest first. */
  points: AgentMetricPoint[];
  /** Where the chart's window ends (ms): when the points were read, or the newest pushed point if later. */
  until: number;
  status: LoadStatus;
  error: unknown;
}

export interface AgentDetailState {
  id: number | null;
  /** The cache's row for `id` once read. */
  agent: AgentDto | null;
  /** `missing`: the server says the agent does not exist. */
  status: LoadStatus | 'missing';
  error: unknown;
  /** Deleted (here or elsewhere) while shown; the agent stays in state for the page to decide what to show. */
  removed: boolean;
  metrics: AgentMetrics;
  load: (id: number, options?: { quiet?: boolean; signal?: AbortSignal }) => Promise<void>;
  /** Reads the charts' points for `range` (by default the range shown). */
  loadMetrics: (range?: AgentMetricsRange, options?: { quiet?: boolean }) => Promise<void>;
  /**
   * A report grows the hour's chart; a longer range is read again once a report falls in a bucket after the one it
   * was read in (the cache takes the agent's new figures).
   */
  applyReported: (event: AgentReportedEvent) => void;
  /** Flags an agent deleted while shown (the cache takes edits). */
  applyChange: (event: AgentsChangedEvent) => void;
}

const EMPTY_METRICS: AgentMetrics = { range: LIVE_RANGE, step: 60, points: [], until: 0, status: 'idle', error: null };

/** The live chart after a report: the point appended (unless already shown or older), the hour window kept. */
export function withLivePoint(points: AgentMetricPoint[], point: AgentMetricPoint): AgentMetricPoint[] {
  const time = Date.parse(point.time);
  const last = points.at(-1);
  if (Number.isNaN(time) || (last && time <= Date.parse(last.time))) return points;
  const cutoff = time - LIVE_WINDOW_MS;
  const first = points.findIndex((kept) => Date.parse(kept.time) >= cutoff);
  return [...(first < 0 ? [] : first === 0 ? points : points.slice(first)), point];
}

const table = liveCache.agents;
/** The detail page's view in the cache. */
const VIEW = 'agent-detail';
const request = latestRequest();
const metricsRequest = latestRequest();

/** The agent on the detail page and the points of its charts for the chosen range. */
export const useAgentDetailStore = create<AgentDetailState>()((set, get) => {
  const detail: DetailRead<AgentDto> = {
    table,
    view: VIEW,
    request,
    read: async (id, signal) => (await agentsApi.get(id, signal)).agent,
    current: () => ({ id: get().id, status: get().status, row: get().agent }),
    switchTo(id) {
      metricsRequest.abort();
      set({ id, agent: null, status: 'loading', error: null, removed: false, metrics: EMPTY_METRICS });
    },
    set: ({ row, ...patch }) => set(row === undefined ? patch : { ...patch, agent: row }),
  };
  followRow(detail);

  return {
    id: null,
    agent: null,
    status: 'idle',
    error: null,
    removed: false,
    metrics: EMPTY_METRICS,

    load: (id, options) => loadDetail(detail, id, options),

    async loadMetrics(range = get().metrics.range, { quiet = false } = {}) {
      const id = get().id;
      if (id === null) return;
      const ticket = metricsRequest.start();
      const current = get().metrics;
      const keep = quiet && current.range === range && current.status === 'ready';
      if (!keep)
        set({
          metrics: { ...current, range, points: current.range === range ? current.points : [], status: 'loading', error: null },
        });
      try {
        const { metrics } = await agentsApi.metrics(id, range, ticket.signal);
        if (!ticket.current || get().id !== id) return;
        set({ metrics: { range, step: metrics.step, points: metrics.points, until: Date.now(), status: 'ready', error: null } });
      } catch (error) {
        if (!ticket.current) return;
        if (!keep) set({ metrics: { ...get().metrics, status: 'error', error } });
      } finally {
        ticket.end();
      }
    },

    applyReported(event) {
      const { id, metrics } = get();
      if (id !== event.agentId || metrics.status !== 'ready') return;
      if (metrics.range !== LIVE_RANGE) {
        const bucket = (time: number) => Math.floor(time / (metrics.step * 1000));
        if (bucket(Date.parse(event.agent.updated_at)) > bucket(metrics.until)) void get().loadMetrics(metrics.range, { quiet: true });
        return;
      }
      const time = Date.parse(event.point.time);
      set({
        metrics: {
          ...metrics,
          points: withLivePoint(metrics.points, event.point),
          until: Number.isNaN(time) ? metrics.until : Math.max(metrics.until, time),
        },
      });
    },

    applyChange({ action, agent }) {
      if (action === 'deleted' && get().id === agent.id && get().agent) set({ removed: true });
    },
  };
});
