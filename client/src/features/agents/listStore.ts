import {
  PAGE_SIZE_DEFAULT,
  type AgentDto,
  type AgentReportedEvent,
  type AgentsChangedEvent,
  type AgentStatusChangedEvent,
} from '@vigil/proto';
import { create } from 'zustand';
import { type AgentListQuery, agentsApi } from './api';
import { type AgentCounts, countsAfterMembership, countsAfterTransition, EMPTY_COUNTS, matchesListQuery } from './live';

/** Rows per page of the agent list: a thousand agents make ten pages, each rendered at once. */
export const AGENTS_PAGE_SIZE = PAGE_SIZE_DEFAULT;
/** How soon after a push the list cannot settle by itself the page is re-read, once for a burst of pushes. */
export const RESYNC_DELAY_MS = 1000;

type LoadStatus = 'idle' | 'loading' | 'ready' | 'error';

export interface AgentListState {
  agents: AgentDto[];
  /** Agents matching the query, over every page. */
  total: number;
  /** Over every agent, whatever the query: the summary numbers. */
  counts: AgentCounts;
  query: AgentListQuery;
  status: LoadStatus;
  error: unknown;
  /** A request is on its way (also a quiet one). */
  fetching: boolean;
  /**
   * Loads the page for the query changed by `patch`. `keepRows` leaves the current rows on screen until the answer
   * lands (paging, filtering); `quiet` does too and, for background refreshes, also keeps them when the call fails.
   */
  load: (patch?: Partial<AgentListQuery>, options?: { quiet?: boolean; keepRows?: boolean }) => Promise<void>;
  remove: (id: number) => Promise<void>;
  applyReported: (event: AgentReportedEvent) => void;
  applyStatusChanged: (event: AgentStatusChangedEvent) => void;
  applyChange: (event: AgentsChangedEvent) => void;
}

/** A store for one page of agents with the summary counts, kept live by pushes. */
export function createAgentListStore(pageSize: number) {
  let sequence = 0;
  let resyncTimer: ReturnType<typeof setTimeout> | null = null;
  /** Ids whose deletion has been counted, so the HTTP answer and the push do not both count it. */
  const deleted = new Set<number>();

  return create<AgentListState>()((set, get) => {
    function scheduleResync(): void {
      if (resyncTimer !== null || get().status !== 'ready') return;
      resyncTimer = setTimeout(() => {
        resyncTimer = null;
        void get().load({}, { quiet: true });
      }, RESYNC_DELAY_MS);
    }

    function indexOf(id: number): number {
      return get().agents.findIndex((row) => row.id === id);
    }

    function forget(agent: AgentDto): void {
      if (deleted.has(agent.id)) return;
      deleted.add(agent.id);
      const { agents, total, counts } = get();
      const present = agents.some((row) => row.id === agent.id);
      set({
        agents: present ? agents.filter((row) => row.id !== agent.id) : agents,
        total: present ? Math.max(0, total - 1) : total,
        counts: countsAfterMembership(counts, agent, -1),
      });
    }

    return {
      agents: [],
      total: 0,
      counts: EMPTY_COUNTS,
      query: { page: 1, pageSize, status: 'all', search: '' },
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
          const response = await agentsApi.list(query);
          if (ticket !== sequence) return;
          // A page emptied by deletions elsewhere falls back to the last page that still has rows.
          const lastPage = Math.max(1, Math.ceil(response.total / pageSize));
          if (response.agents.length === 0 && query.page > lastPage) return get().load({ page: lastPage }, { quiet, keepRows });
          deleted.clear();
          set({ agents: response.agents, total: response.total, counts: response.counts, status: 'ready', error: null, fetching: false });
        } catch (error) {
          if (ticket !== sequence) return;
          set(quiet && get().status === 'ready' ? { fetching: false } : { status: 'error', error, fetching: false });
        }
      },

      async remove(id) {
        await agentsApi.remove(id);
        const agent = get().agents.find((row) => row.id === id);
        if (agent) forget(agent);
        // The next page's first row moves up into the freed place.
        scheduleResync();
      },

      applyReported(event) {
        if (get().status !== 'ready') return;
        const index = indexOf(event.agentId);
        // The push carries the whole agent with its new figures; only the row it concerns changes identity.
        if (index >= 0) set({ agents: get().agents.with(index, event.agent) });
      },

      applyStatusChanged(event) {
        const { agents, counts, query, status } = get();
        if (status !== 'ready') return;
        const index = indexOf(event.agentId);
        const known = index >= 0 ? agents[index] : undefined;
        set({
          counts: countsAfterTransition(counts, event.previous, event.status),
          agents: known && known.status !== event.status ? agents.with(index, { ...known, status: event.status }) : agents,
        });
        // Under a status filter the agent may leave this page or join it.
        if (query.status !== 'all') scheduleResync();
      },

      applyChange(event) {
        const { agents, counts, total, query, status } = get();
        if (status !== 'ready') return;
        if (event.action === 'deleted') {
          forget(event.agent);
          scheduleResync();
          return;
        }
        const index = indexOf(event.agent.id);
        const belongs = matchesListQuery(event.agent, query.status, query.search);
        if (event.action === 'created') {
          if (index >= 0) return;
          // Rows are ordered by id, so a new agent belongs at the end of the last page.
          const onLastPage = query.page >= Math.ceil(total / pageSize);
          const fits = agents.length < pageSize;
          set({
            counts: countsAfterMembership(counts, event.agent, 1),
            total: belongs ? total + 1 : total,
            agents: belongs && onLastPage && fits ? [...agents, event.agent] : agents,
          });
          return;
        }
        if (index >= 0) set({ agents: agents.with(index, event.agent) });
        // A rename may take the agent in or out of the searched rows.
        if (query.search.trim() && index >= 0 !== belongs) scheduleResync();
      },
    };
  });
}

/** The agent list page: one page of agents for the chosen status and search, with the summary counts. */
export const useAgentsStore = createAgentListStore(AGENTS_PAGE_SIZE);

/** Agents shown on the dashboard (spec section 9). */
export const DASHBOARD_AGENTS = 3;

/** The dashboard: the first agents as cards. */
export const useDashboardAgentsStore = createAgentListStore(DASHBOARD_AGENTS);
