import { POLL_INTERVAL_MS } from '@vigil/proto';
import { useEffect, useRef } from 'react';
import { useRealtimeStore } from './store';

/**
 * Keeps a screen fresh without the socket: while it is down, `refresh` runs every POLL_INTERVAL_MS; when it comes
 * back after an outage seen by this screen, `refresh` runs once to catch pushes missed meanwhile. Each run gets a
 * signal that aborts when the next run starts or the screen unmounts, so a slow request never piles up behind
 * another (spec section 2: "cancels any request still in flight").
 */
export function usePollingFallback(refresh: (signal: AbortSignal) => void): void {
  const status = useRealtimeStore((state) => state.status);
  const refreshRef = useRef(refresh);
  const sawOutage = useRef(false);
  const inFlight = useRef<AbortController | null>(null);

  useEffect(() => {
    refreshRef.current = refresh;
  }, [refresh]);

  useEffect(() => () => inFlight.current?.abort(), []);

  useEffect(() => {
    const run = () => {
      inFlight.current?.abort();
      const controller = new AbortController();
      inFlight.current = controller;
      refreshRef.current(controller.signal);
    };
    if (status === 'connected') {
      if (sawOutage.current) run();
      sawOutage.current = false;
      return;
    }
    if (status === 'offline') sawOutage.current = true;
    const timer = setInterval(run, POLL_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [status]);
}
