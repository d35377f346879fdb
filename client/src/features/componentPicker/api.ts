import { PAGE_SIZE_MAX } from '@vigil/proto';
import { ApiError } from '../../api/http';
import { agentsApi } from '../agents/api';
import { monitorsApi } from '../monitors/api';
import type { PickKind, PickOption, PickedRef } from './refs';

/** Results per page of a search: a first page per read, never the whole list (10,000 monitors stay fast). */
export const SEARCH_PAGE_SIZE = 20;

export interface SearchPage {
  options: PickOption[];
  /** Matches over every page. */
  total: number;
}

/** One page of the monitors, agents or group monitors whose name or target contains the text, read by the server. */
export async function searchComponents(
  kind: PickKind,
  search: string,
  page: number,
  pageSize = SEARCH_PAGE_SIZE,
  signal?: AbortSignal,
): Promise<SearchPage> {
  if (kind === 'agent') {
    const answer = await agentsApi.list({ page, pageSize, status: 'all', search }, signal);
    return { total: answer.total, options: answer.agents.map((agent) => ({ ref: { type: 'agent', id: agent.id }, name: agent.name })) };
  }
  const answer = await monitorsApi.list({ page, pageSize, filter: 'all', type: kind === 'group' ? 'group' : 'all', search }, signal);
  return { total: answer.total, options: answer.monitors.map((monitor) => ({ ref: { type: kind, id: monitor.id }, name: monitor.name })) };
}

/**
 * Every match of a search, read page by page at the largest page size (10,000 monitors are 20 reads), reporting
 * how many have arrived so the screen can show progress.
 */
export async function allMatching(
  kind: PickKind,
  search: string,
  onProgress: (read: number, total: number) => void,
  signal?: AbortSignal,
): Promise<PickOption[]> {
  const options: PickOption[] = [];
  for (let page = 1; ; page += 1) {
    const answer = await searchComponents(kind, search, page, PAGE_SIZE_MAX, signal);
    options.push(...answer.options);
    onProgress(options.length, answer.total);
    if (answer.options.length < PAGE_SIZE_MAX || options.length >= answer.total) return options;
  }
}

/** The name of one component; null when it no longer exists. */
export async function componentName(ref: PickedRef, signal?: AbortSignal): Promise<string | null> {
  try {
    if (ref.type === 'agent') return (await agentsApi.get(ref.id, signal)).agent.name;
    return (await monitorsApi.get(ref.id, signal)).monitor.name;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}
