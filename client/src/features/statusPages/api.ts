import type { MessageResponse, SaveStatusPageRequest, StatusPageResponse, StatusPagesResponse, SubscribersResponse } from '@vigil/proto';
import { DEFAULT_PAGE_SLUG } from '@vigil/proto';
import { http } from '../../api/http';

export interface SubscribersQuery {
  page: number;
  pageSize: number;
  search: string;
}

export const SUBSCRIBERS_PAGE_SIZE = 25;

function subscribersParams({ page, pageSize, search }: SubscribersQuery): string {
  const params = new URLSearchParams({ page: String(page), pageSize: String(pageSize) });
  if (search.trim()) params.set('search', search.trim());
  return params.toString();
}

const pagePath = (slug: string) => `/api/status-pages/${encodeURIComponent(slug)}`;

export const statusPagesApi = {
  list: (signal?: AbortSignal) => http.get<StatusPagesResponse>('/api/status-pages', { signal }),
  get: (slug: string, signal?: AbortSignal) => http.get<StatusPageResponse>(pagePath(slug), { signal }),
  create: (body: SaveStatusPageRequest) => http.post<StatusPageResponse>('/api/status-pages', body),
  /** A different `slug` in the body renames the page. */
  update: (slug: string, body: SaveStatusPageRequest) => http.put<StatusPageResponse>(pagePath(slug), body),
  remove: (slug: string) => http.delete<MessageResponse>(pagePath(slug)),
  subscribers: (slug: string, query: SubscribersQuery, signal?: AbortSignal) =>
    http.get<SubscribersResponse>(`${pagePath(slug)}/subscribers?${subscribersParams(query)}`, { signal }),
  removeSubscriber: (slug: string, id: number) => http.delete<MessageResponse>(`${pagePath(slug)}/subscribers/${id}`),
};

/** Where visitors see a page: `/status` for the default page, `/status/<slug>` for the others. */
export function publicPagePath(slug: string): string {
  return slug === DEFAULT_PAGE_SLUG ? '/status' : `/status/${slug}`;
}
