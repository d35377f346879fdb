import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router-dom';
import { useAuthStore } from '../features/auth/store';
import { registerNavigator } from './navigation';

/**
 * Wires the parts that live outside React to the router: lets the API client and the auth store navigate, restores
 * the stored session once, then keeps the live socket in step with it.
 */
export function SessionBridge() {
  const navigate = useNavigate();
  const started = useRef(false);

  useEffect(() => {
    registerNavigator((path, options) => navigate(path, options));
    return () => registerNavigator(null);
  }, [navigate]);

  useEffect(() => {
    // Guarded so development's double effects do not restore the session twice.
    if (started.current) return;
    started.current = true;
    void useAuthStore.getState().init();
  }, []);

  useEffect(() => {
    // The live socket (socket.io and the stores its pushes update) is a chunk of its own, off the first screen's path.
    let stop: (() => void) | null = null;
    let unmounted = false;
    void import('../realtime/socket').then(({ startRealtime }) => {
      if (!unmounted) stop = startRealtime();
    });
    return () => {
      unmounted = true;
      stop?.();
    };
  }, []);

  return null;
}
