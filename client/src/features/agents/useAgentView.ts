import { useCallback, useState } from 'react';

export type AgentView = 'card' | 'table';

/** Where the list remembers the chosen layout between visits. */
export const AGENT_VIEW_STORAGE_KEY = 'agents.view';

function readView(): AgentView {
  try {
    return localStorage.getItem(AGENT_VIEW_STORAGE_KEY) === 'table' ? 'table' : 'card';
  } catch {
    return 'card';
  }
}

/** The agent list's card/table choice, kept in local storage; cards first, since they show the resource bars. */
export function useAgentView(): [AgentView, (view: AgentView) => void] {
  const [view, setView] = useState<AgentView>(readView);
  const change = useCallback((next: AgentView) => {
    setView(next);
    try {
      localStorage.setItem(AGENT_VIEW_STORAGE_KEY, next);
    } catch {
      // Storage may be full or disabled (private mode); the choice then lasts for this visit only.
    }
  }, []);
  return [view, change];
}
