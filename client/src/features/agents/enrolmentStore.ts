import type { AgentDto, AgentsChangedEvent } from '@vigil/proto';
import { create } from 'zustand';
import { liveCache } from '../../live/cache';
import { agentsApi } from './api';

export interface AgentEnrolmentState {
  /** The id of the token the create page shows; agents that enrol with it carry it as `registration_id`. */
  tokenId: number | null;
  /** Agents registered with that token, in the order they arrived (the cache's rows). */
  registered: AgentDto[];
  /** Starts watching for agents of a newly generated token. */
  watch: (tokenId: number) => void;
  reset: () => void;
  /** Looks for agents of the token among the newest ones, for when pushes may have been missed (socket down). */
  refresh: () => Promise<void>;
  /** An agent of the token enrolled, or one shown was deleted (the cache takes reports and edits). */
  applyChange: (event: AgentsChangedEvent) => void;
}

/** How many of the newest agents the fallback refresh reads: more than can enrol between two polls. */
const NEWEST_AGENTS = 100;
/** The create page's view in the cache. */
const VIEW = 'agent-enrolment';
const table = liveCache.agents;

/** The create page's watch for agents that register with the token it shows (spec section 2: "added automatically"). */
export const useAgentEnrolmentStore = create<AgentEnrolmentState>()((set, get) => {
  function show(ids: readonly number[]): void {
    table.show(VIEW, ids);
    set({ registered: table.rows(VIEW) });
  }

  /** Agents joining the shown ones, after them, each once. */
  function add(agents: AgentDto[]): void {
    const shown = table.ids(VIEW);
    const joining = agents.filter((agent) => !shown.includes(agent.id));
    table.write(agents);
    show([...shown, ...joining.map((agent) => agent.id)]);
  }

  // The shown agents follow the cache, where their reports, transitions and renames land.
  table.subscribe(() => {
    const rows = table.rows(VIEW);
    const held = get().registered;
    if (rows.length !== held.length || rows.some((row, index) => row !== held[index])) set({ registered: rows });
  });

  return {
    tokenId: null,
    registered: [],

    watch(tokenId) {
      set({ tokenId });
      show([]);
    },

    reset() {
      set({ tokenId: null });
      show([]);
    },

    async refresh() {
      const tokenId = get().tokenId;
      if (tokenId === null) return;
      try {
        // Agents are numbered in order of registration, so the newest are on the last page.
        const { total } = await agentsApi.list({ page: 1, pageSize: 1, status: 'all', search: '' });
        const page = Math.max(1, Math.ceil(total / NEWEST_AGENTS));
        const { agents } = await agentsApi.list({ page, pageSize: NEWEST_AGENTS, status: 'all', search: '' });
        if (get().tokenId !== tokenId) return;
        add(agents.filter((agent) => agent.registration_id === tokenId));
      } catch {
        // A background look; the next poll or push tries again.
      }
    },

    applyChange({ action, agent }) {
      const { tokenId } = get();
      if (tokenId === null) return;
      const shown = table.ids(VIEW);
      if (action === 'deleted') {
        if (shown.includes(agent.id)) show(shown.filter((id) => id !== agent.id));
      } else if (action === 'created' && agent.registration_id === tokenId) add([agent]);
    },
  };
});
