import type { AgentDto, AgentReportedEvent, AgentsChangedEvent, AgentStatusChangedEvent } from '@vigil/proto';
import { create } from 'zustand';
import { agentsApi } from './api';

export interface AgentEnrolmentState {
  /** The id of the token the create page shows; agents that enrol with it carry it as `registration_id`. */
  tokenId: number | null;
  /** Agents registered with that token, in the order they arrived. */
  registered: AgentDto[];
  /** Starts watching for agents of a newly generated token. */
  watch: (tokenId: number) => void;
  reset: () => void;
  /** Looks for agents of the token among the newest ones, for when pushes may have been missed (socket down). */
  refresh: () => Promise<void>;
  applyChange: (event: AgentsChangedEvent) => void;
  applyReported: (event: AgentReportedEvent) => void;
  applyStatusChanged: (event: AgentStatusChangedEvent) => void;
}

/** How many of the newest agents the fallback refresh reads: more than can enrol between two polls. */
const NEWEST_AGENTS = 100;

function upsert(list: AgentDto[], agent: AgentDto): AgentDto[] {
  const index = list.findIndex((row) => row.id === agent.id);
  return index < 0 ? [...list, agent] : list.with(index, agent);
}

/** The create page's watch for agents that register with the token it shows (spec section 2: "added automatically"). */
export const useAgentEnrolmentStore = create<AgentEnrolmentState>()((set, get) => ({
  tokenId: null,
  registered: [],

  watch(tokenId) {
    set({ tokenId, registered: [] });
  },

  reset() {
    set({ tokenId: null, registered: [] });
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
      const found = agents.filter((agent) => agent.registration_id === tokenId);
      set({ registered: found.reduce(upsert, get().registered) });
    } catch {
      // A background look; the next poll or push tries again.
    }
  },

  applyChange({ action, agent }) {
    const { tokenId, registered } = get();
    if (tokenId === null) return;
    if (action === 'deleted') {
      if (registered.some((row) => row.id === agent.id)) set({ registered: registered.filter((row) => row.id !== agent.id) });
      return;
    }
    const known = registered.some((row) => row.id === agent.id);
    if (known || (action === 'created' && agent.registration_id === tokenId)) set({ registered: upsert(registered, agent) });
  },

  applyReported(event) {
    const { registered } = get();
    if (registered.some((row) => row.id === event.agentId)) set({ registered: upsert(registered, event.agent) });
  },

  applyStatusChanged(event) {
    const { registered } = get();
    const index = registered.findIndex((row) => row.id === event.agentId);
    if (index >= 0 && registered[index].status !== event.status)
      set({ registered: registered.with(index, { ...registered[index], status: event.status }) });
  },
}));
