import { type AgentDto, type AgentsChangedEvent, type AgentStatusChangedEvent, PAGE_SIZE_DEFAULT } from '@vigil/proto';
import { liveCache } from '../../live/cache';
import { createLiveList } from '../../live/liveList';
import { type AgentListQuery, agentsApi } from './api';
import { countsAfterMembership, countsAfterTransition, EMPTY_COUNTS, matchesListQuery } from './live';

/** Rows per page of the agent list: a thousand agents make ten pages, each rendered at once. */
export const AGENTS_PAGE_SIZE = PAGE_SIZE_DEFAULT;
/** How soon after a push the list cannot settle by itself the page is re-read, once for a burst of pushes. */
export const RESYNC_DELAY_MS = 1000;

/** A store for one page of agents with the summary counts, kept live by pushes; the rows themselves are the cache's. */
export function createAgentListStore(pageSize: number, view?: string) {
  const table = liveCache.agents;
  return createLiveList(
    {
      table,
      view,
      query: { page: 1, pageSize, status: 'all', search: '' } as AgentListQuery,
      counts: EMPTY_COUNTS,
      fetch: async (query, signal) => {
        const response = await agentsApi.list(query, signal);
        return { rows: response.agents, total: response.total, counts: response.counts };
      },
      destroy: (id) => agentsApi.remove(id),
      matches: (agent: AgentDto, query) => matchesListQuery(agent, query.status, query.search),
      countsAfter: countsAfterMembership,
      resyncDelayMs: RESYNC_DELAY_MS,
    },
    // Counts and membership are the list's; the rows' own changes are written to the cache by the realtime module.
    (list) => ({
      applyStatusChanged(event: AgentStatusChangedEvent) {
        if (!list.ready()) return;
        list.setCounts(countsAfterTransition(list.state().counts, event));
        // Under a status filter the agent may leave this page or join it.
        if (list.state().query.status !== 'all') list.resyncSoon();
      },

      applyChange(event: AgentsChangedEvent) {
        if (!list.ready()) return list.missed();
        if (event.action === 'deleted') {
          list.deleted(event.agent);
          list.resyncSoon();
          return;
        }
        if (event.action === 'created') {
          list.created(event.agent);
          return;
        }
        // A rename may take the agent in or out of the searched rows.
        const { query, rows } = list.state();
        const shown = rows.some((row) => row.id === event.agent.id);
        if (query.search.trim() && shown !== matchesListQuery(event.agent, query.status, query.search)) list.resyncSoon();
      },
    }),
  );
}

/** The agent list page: one page of agents for the chosen status and search, with the summary counts. */
export const useAgentsStore = createAgentListStore(AGENTS_PAGE_SIZE, 'agents');

/** Agents shown on the dashboard (spec section 9). */
export const DASHBOARD_AGENTS = 3;

/** The dashboard: the first agents as cards. */
export const useDashboardAgentsStore = createAgentListStore(DASHBOARD_AGENTS, 'dashboard-agents');
