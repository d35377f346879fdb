import { useCallback, useEffect, useRef, useState } from 'react';
import type { DownloadedFile } from '../../api/http';
import { saveFile } from './api';

export type DownloadRun = (onProgress: (bytes: number) => void, signal: AbortSignal) => Promise<DownloadedFile>;

export interface DownloadState {
  /** Bytes received so far while a download runs; null when none runs. */
  bytes: number | null;
  error: unknown;
  start: (run: DownloadRun, fallbackName: string) => Promise<void>;
  cancel: () => void;
}

/** One download at a time with its progress; leaving the screen or cancelling stops it. */
export function useDownload(): DownloadState {
  const [bytes, setBytes] = useState<number | null>(null);
  const [error, setError] = useState<unknown>(null);
  const controller = useRef<AbortController | null>(null);

  useEffect(() => () => controller.current?.abort(), []);

  const start = useCallback(async (run: DownloadRun, fallbackName: string) => {
    controller.current?.abort();
    const own = new AbortController();
    controller.current = own;
    setError(null);
    setBytes(0);
    try {
      saveFile(await run(setBytes, own.signal), fallbackName);
    } catch (failure) {
      if (!own.signal.aborted) setError(failure);
    } finally {
      if (controller.current === own) {
        controller.current = null;
        setBytes(null);
      }
    }
  }, []);

  const cancel = useCallback(() => controller.current?.abort(), []);
  return { bytes, error, start, cancel };
}
