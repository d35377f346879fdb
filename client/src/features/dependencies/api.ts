import type { DependencyChainResponse, DependencyRef } from '@vigil/proto';
import { ApiError, http } from '../../api/http';
import { agentsApi } from '../agents/api';
import { monitorsApi } from '../monitors/api';
import { refKey } from './refs';

/** A monitor or agent as the picker offers it: its name and kind, nothing else travels to the form. */
export interface DependencyOption {
  ref: DependencyRef;
  name: string;
}

/** How many of each kind one search shows: a first page, never the whole list (10,000 monitors stay fast). */
export const SEARCH_PAGE = 20;

export type DependencyKind = DependencyRef['type'];
export const DEPENDENCY_KINDS: readonly DependencyKind[] = ['monitor', 'agent'];

/** Monitors and agents (or only the kinds asked for) whose name or target contains the text, through the paged list reads. */
export async function searchDependencies(
  search: string,
  signal?: AbortSignal,
  kinds: readonly DependencyKind[] = DEPENDENCY_KINDS,
): Promise<DependencyOption[]> {
  const [monitors, agents] = await Promise.all([
    kinds.includes('monitor') ? monitorsApi.list({ page: 1, pageSize: SEARCH_PAGE, filter: 'all', type: 'all', search }, signal) : null,
    kinds.includes('agent') ? agentsApi.list({ page: 1, pageSize: SEARCH_PAGE, status: 'all', search }, signal) : null,
  ]);
  return [
    ...(monitors?.monitors ?? []).map((monitor) => ({ ref: { type: 'monitor' as const, id: monitor.id }, name: monitor.name })),
    ...(agents?.agents ?? []).map((agent) => ({ ref: { type: 'agent' as const, id: agent.id }, name: agent.name })),
  ];
}

/** The names of saved dependencies (at most DEPENDENCIES_MAX reads); a deleted one answers null. */
export async function dependencyNames(refs: readonly DependencyRef[], signal?: AbortSignal): Promise<Map<string, string | null>> {
  const names = await Promise.all(
    refs.map(async (ref) => {
      try {
        const name =
          ref.type === 'monitor' ? (await monitorsApi.get(ref.id, signal)).monitor.name : (await agentsApi.get(ref.id, signal)).agent.name;
        return [refKey(ref), name] as const;
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return [refKey(ref), null] as const;
        throw error;
      }
    }),
  );
  return new Map(names);
}

/** What the monitor or agent depends on and what depends on it, transitively, with statuses (one read). */
export function dependencyChain({ type, id }: DependencyRef, signal?: AbortSignal): Promise<DependencyChainResponse> {
  return http.get<DependencyChainResponse>(`/api/${type === 'monitor' ? 'monitors' : 'agents'}/${id}/dependencies`, { signal });
}
