import { type DependencyList, useCallback, useEffect, useState } from 'react';

export interface PagedRead<T> {
  status: 'loading' | 'ready' | 'error';
  items: T[];
  total: number;
  error: unknown;
  /** Reads the same page again. */
  retry: () => void;
}

/**
 * One page read from the server, again whenever `deps` change (aborting the read in flight); the previous page stays
 * shown while the next one loads.
 */
export function usePagedRead<T>(read: (signal: AbortSignal) => Promise<{ items: T[]; total: number }>, deps: DependencyList): PagedRead<T> {
  const [state, setState] = useState<Omit<PagedRead<T>, 'retry'>>({ status: 'loading', items: [], total: 0, error: null });
  const [attempt, setAttempt] = useState(0);
  const retry = useCallback(() => setAttempt((count) => count + 1), []);

  // `read` is a new closure each render; the caller's deps say when it reads something else.
  useEffect(() => {
    const controller = new AbortController();
    setState((current) => ({ ...current, status: 'loading' }));
    read(controller.signal).then(
      ({ items, total }) => setState({ status: 'ready', items, total, error: null }),
      (error: unknown) => {
        if (!controller.signal.aborted) setState({ status: 'error', items: [], total: 0, error });
      },
    );
    return () => controller.abort();
  }, [...deps, attempt]);

  return { ...state, retry };
}
