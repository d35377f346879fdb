import type {
  AgentDto,
  AgentMetricPoint,
  AgentMetricsRange,
  AgentReportedEvent,
  AgentsChangedEvent,
  AgentStatusChangedEvent,
} from '@vigil/proto';
import { create } from 'zustand';
import { ApiError } from '../../api/http';
import { agentsApi } from './api';

type LoadStatus = 'idle' | 'loading' | 'ready' | 'error';

/** The range whose chart grows with every report; longer ranges are buckets of 5 minutes or more, read again instead. */
export const LIVE_RANGE: AgentMetricsRange = '1h';
const LIVE_WINDOW_MS = 3_600_000;

export interface AgentMetrics {
  range: AgentMetricsRange;
  /** Bucket width in seconds, as the server answered. */
  step: number;
  /** Oldest first. */
  points: AgentMetricPoint[];
  status: LoadStatus;
  error: unknown;
}

export interface AgentDetailState {
  id: number | null;
  agent: AgentDto | null;
  /** `missing`: the server says the agent does not exist. */
  status: LoadStatus | 'missing';
  error: unknown;
  /** Deleted (here or elsewhere) while shown; the agent stays in state for the page to decide what to show. */
  removed: boolean;
  metrics: AgentMetrics;
  load: (id: number, options?: { quiet?: boolean }) => Promise<void>;
  loadMetrics: (range: AgentMetricsRange, options?: { quiet?: boolean }) => Promise<void>;
  applyReported: (event: AgentReportedEvent) => void;
  applyStatusChanged: (event: AgentStatusChangedEvent) => void;
  applyChange: (event: AgentsChangedEvent) => void;
}

const EMPTY_METRICS: AgentMetrics = { range: LIVE_RANGE, step: 60, points: [], status: 'idle', error: null };

/** The live chart after a report: the point appended (unless already shown or older), the hour window kept. */
export function withLivePoint(points: AgentMetricPoint[], point: AgentMetricPoint): AgentMetricPoint[] {
  const time = Date.parse(point.time);
  const last = points.at(-1);
  if (Number.isNaN(time) || (last && time <= Date.parse(last.time))) return points;
  const cutoff = time - LIVE_WINDOW_MS;
  const first = points.findIndex((kept) => Date.parse(kept.time) >= cutoff);
  return [...(first < 0 ? [] : first === 0 ? points : points.slice(first)), point];
}

let sequence = 0;
let metricsSequence = 0;

/** The agent on the detail page and the points of its charts for the chosen range. */
export const useAgentDetailStore = create<AgentDetailState>()((set, get) => ({
  id: null,
  agent: null,
  status: 'idle',
  error: null,
  removed: false,
  metrics: EMPTY_METRICS,

  async load(id, { quiet = false } = {}) {
    const ticket = ++sequence;
    const same = get().id === id;
    if (!same) set({ id, agent: null, status: 'loading', error: null, removed: false, metrics: EMPTY_METRICS });
    else if (!quiet) set({ status: 'loading', error: null });
    try {
      const { agent } = await agentsApi.get(id);
      if (ticket === sequence) set({ agent, status: 'ready', error: null, removed: false });
    } catch (error) {
      if (ticket !== sequence) return;
      if (error instanceof ApiError && error.status === 404) set({ status: 'missing', error });
      else if (!quiet || get().status !== 'ready') set({ status: 'error', error });
    }
  },

  async loadMetrics(range, { quiet = false } = {}) {
    const id = get().id;
    if (id === null) return;
    const ticket = ++metricsSequence;
    const current = get().metrics;
    const keep = quiet && current.range === range && current.status === 'ready';
    if (!keep)
      set({
        metrics: { range, step: current.step, points: current.range === range ? current.points : [], status: 'loading', error: null },
      });
    try {
      const { metrics } = await agentsApi.metrics(id, range);
      if (ticket !== metricsSequence || get().id !== id) return;
      set({ metrics: { range, step: metrics.step, points: metrics.points, status: 'ready', error: null } });
    } catch (error) {
      if (ticket !== metricsSequence) return;
      if (!keep) set({ metrics: { ...get().metrics, status: 'error', error } });
    }
  },

  applyReported(event) {
    const { agent, metrics } = get();
    if (!agent || agent.id !== event.agentId) return;
    const grows = metrics.range === LIVE_RANGE && metrics.status === 'ready';
    set({
      agent: event.agent,
      metrics: grows ? { ...metrics, points: withLivePoint(metrics.points, event.point) } : metrics,
    });
  },

  applyStatusChanged(event) {
    const { agent } = get();
    if (agent && agent.id === event.agentId && agent.status !== event.status) set({ agent: { ...agent, status: event.status } });
  },

  applyChange({ action, agent }) {
    const current = get().agent;
    if (!current || current.id !== agent.id) return;
    if (action === 'deleted') set({ removed: true });
    else set({ agent });
  },
}));
