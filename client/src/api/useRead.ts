import { useCallback, useEffect, useState } from 'react';

export interface ReadState<T> {
  status: 'loading' | 'ready' | 'error';
  /** The newest answer; while the next read loads it stays, so a screen may keep showing it. */
  value: T | undefined;
  error: unknown;
  /** Reads again. */
  retry: () => void;
}

type Read<T> = (signal: AbortSignal) => Promise<T>;

interface Answer<T> {
  /** The read and attempt it answers: an answer to an earlier one counts as loading until the next lands. */
  read: Read<T>;
  attempt: number;
  value: T | undefined;
  error: unknown;
}

/**
 * One read from the server for a screen, again whenever `read` changes (the caller memoizes it on what it reads) and
 * on `retry`; the read in flight is aborted when the next starts or the screen unmounts.
 */
export function useRead<T>(read: Read<T>): ReadState<T> {
  const [answer, setAnswer] = useState<Answer<T> | null>(null);
  const [attempt, setAttempt] = useState(0);
  const retry = useCallback(() => setAttempt((count) => count + 1), []);

  useEffect(() => {
    const controller = new AbortController();
    read(controller.signal).then(
      (value) => {
        if (!controller.signal.aborted) setAnswer({ read, attempt, value, error: null });
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setAnswer({ read, attempt, value: undefined, error });
      },
    );
    return () => controller.abort();
  }, [read, attempt]);

  const current = answer !== null && answer.read === read && answer.attempt === attempt;
  const status = !current ? 'loading' : answer.error === null ? 'ready' : 'error';
  return { status, value: answer?.value, error: current ? answer.error : null, retry };
}
