import type { PageGroupItemsResponse, StatusPageDataResponse, SubscribeRequest } from '@vigil/proto';

/** The code the data call answers a password page's visitors with until they unlock it. */
export const LOCKED_CODE = 'statusPages.locked';
const TIMEOUT_MS = 10_000;

export type PageErrorKind = 'http' | 'network' | 'timeout';

/** A failed call: the server's status, message code and English text, or a transport failure. */
export class PageError extends Error {
  constructor(
    readonly status: number,
    readonly code: string | undefined,
    message: string,
    readonly kind: PageErrorKind = 'http',
  ) {
    super(message);
    this.name = 'PageError';
  }

  get locked(): boolean {
    return this.status === 401 && this.code === LOCKED_CODE;
  }
}

interface Answer {
  success: true;
  message?: string;
}

/**
 * One JSON call to the API, same origin with the page's cookie (a password page's unlock cookie), no token: the public
 * page never carries the operator's session.
 */
async function call<T extends object>(path: string, init: { method?: 'GET' | 'POST'; body?: unknown; signal?: AbortSignal } = {}) {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, TIMEOUT_MS);
  const forward = () => controller.abort();
  init.signal?.addEventListener('abort', forward);
  let response: Response;
  try {
    if (init.signal?.aborted) controller.abort();
    response = await fetch(path, {
      method: init.method ?? 'GET',
      headers:
        init.body === undefined ? { Accept: 'application/json' } : { Accept: 'application/json', 'Content-Type': 'application/json' },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      credentials: 'same-origin',
      signal: controller.signal,
    });
  } catch (error) {
    if (timedOut) throw new PageError(0, undefined, 'Request timed out', 'timeout');
    if (init.signal?.aborted) throw error;
    throw new PageError(0, undefined, 'Network error', 'network');
  } finally {
    clearTimeout(timer);
    init.signal?.removeEventListener('abort', forward);
  }
  let body: Record<string, unknown> | null = null;
  try {
    const parsed: unknown = await response.json();
    if (typeof parsed === 'object' && parsed !== null) body = parsed as Record<string, unknown>;
  } catch {
    body = null;
  }
  if (!response.ok || body?.success !== true) {
    const code = typeof body?.code === 'string' ? body.code : undefined;
    throw new PageError(response.status, code, typeof body?.message === 'string' ? body.message : '');
  }
  return body as unknown as T & Answer;
}

const base = (slug: string) => `/api/status-pages/${encodeURIComponent(slug)}`;

export const pageApi = {
  data: (slug: string, signal?: AbortSignal) => call<StatusPageDataResponse>(`${base(slug)}/data`, { signal }),
  group: (slug: string, index: number, offset: number, limit: number, signal?: AbortSignal) =>
    call<PageGroupItemsResponse>(`${base(slug)}/groups/${index}?offset=${offset}&limit=${limit}`, { signal }),
  unlock: (slug: string, password: string) => call<Answer>(`${base(slug)}/unlock`, { method: 'POST', body: { password } }),
  subscribe: (slug: string, body: SubscribeRequest) => call<Answer>(`${base(slug)}/subscribe`, { method: 'POST', body }),
};
