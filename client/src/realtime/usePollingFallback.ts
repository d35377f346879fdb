import { POLL_INTERVAL_MS } from '@vigil/proto';
import { useEffect, useRef } from 'react';
import { useRealtimeStore } from './store';

/**
 * Keeps a screen fresh without the socket: while it is down, `refresh` runs every POLL_INTERVAL_MS; when it comes
 * back after an outage seen by this screen, `refresh` runs once to catch pushes missed meanwhile.
 */
export function usePollingFallback(refresh: () => void): void {
  const status = useRealtimeStore((state) => state.status);
  const refreshRef = useRef(refresh);
  const sawOutage = useRef(false);

  useEffect(() => {
    refreshRef.current = refresh;
  }, [refresh]);

  useEffect(() => {
    if (status === 'connected') {
      if (sawOutage.current) refreshRef.current();
      sawOutage.current = false;
      return;
    }
    if (status === 'offline') sawOutage.current = true;
    const timer = setInterval(() => refreshRef.current(), POLL_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [status]);
}
