import { useRead } from '../../api/useRead';

export interface PagedRead<T> {
  status: 'loading' | 'ready' | 'error';
  items: T[];
  total: number;
  error: unknown;
  /** Reads the same page again. */
  retry: () => void;
}

/**
 * One page read from the server, again whenever `read` changes (the caller memoizes it on the page it reads, and the
 * read in flight is aborted); the previous page stays shown while the next one loads.
 */
export function usePagedRead<T>(read: (signal: AbortSignal) => Promise<{ items: T[]; total: number }>): PagedRead<T> {
  const { status, value, error, retry } = useRead(read);
  return { status, items: value?.items ?? [], total: value?.total ?? 0, error, retry };
}
