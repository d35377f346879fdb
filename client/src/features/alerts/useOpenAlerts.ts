import { useEffect } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { joinRoom } from '../../realtime/socket';
import { selectCanWrite, useAuthStore } from '../auth/store';
import { alertsOf, useOpenAlertsStore } from './store';

/**
 * The open alerts a screen offers to acknowledge (dashboard feed, notification history), read once and kept live
 * through the `alerts` room. A viewer, who cannot acknowledge, reads nothing.
 */
export function useOpenAlerts() {
  const canWrite = useAuthStore(selectCanWrite);
  const load = useOpenAlertsStore((state) => state.load);
  useEffect(() => {
    if (!canWrite) return undefined;
    void load({ quiet: true });
    return joinRoom('alerts');
  }, [canWrite, load]);
  return useOpenAlertsStore((state) => state.alerts);
}

/** The unresolved alerts of one monitor or agent (its detail page), read for it and kept live. */
export function useTargetAlerts(kind: 'monitor' | 'agent', id: number) {
  const loadTarget = useOpenAlertsStore((state) => state.loadTarget);
  useEffect(() => {
    void loadTarget(kind, id);
    return joinRoom('alerts');
  }, [kind, id, loadTarget]);
  return useOpenAlertsStore(useShallow((state) => alertsOf(state.alerts, kind, id)));
}
