import type { ServerToClientEvents } from '@vigil/proto';
import { useAgentDetailStore } from '../features/agents/detailStore';
import { useAgentEnrolmentStore } from '../features/agents/enrolmentStore';
import { useAgentsStore } from '../features/agents/listStore';
import { useAuthStore } from '../features/auth/store';
import { useMonitorDetailStore } from '../features/monitors/detailStore';
import { useDashboardMonitorsStore, useMonitorsStore } from '../features/monitors/listStore';
import { useUsersStore } from '../features/users/store';

/** Give a password change's HTTP answer (the new token) time to land before checking a revoked socket's session. */
const SESSION_CHECK_DELAY_MS = 1000;

/** Every store that shows monitors; each ignores pushes about monitors it does not hold. */
const monitorStores = () => [useMonitorsStore.getState(), useDashboardMonitorsStore.getState(), useMonitorDetailStore.getState()];

/** Every store that shows agents; each ignores pushes about agents it does not hold. */
const agentStores = () => [useAgentsStore.getState(), useAgentDetailStore.getState(), useAgentEnrolmentStore.getState()];

/** Pushes a screen of this client shows; the status page and wall pushes join when their screens are built. */
export type HandledPushes = Omit<ServerToClientEvents, 'status.item' | 'status.changed' | 'wall.change' | 'wall.changed'>;

/**
 * The one place server pushes become store updates. Each handler only touches stores, never components, so pages
 * re-render from state and never see the socket.
 */
export function pushHandlers(): HandledPushes {
  return {
    'users.changed': (event) => {
      useUsersStore.getState().applyChange(event);
      const auth = useAuthStore.getState();
      // The signed-in account itself changed elsewhere (renamed, promoted or demoted): keep the navbar and guards true.
      if (event.action === 'updated' && auth.user?.id === event.user.id) auth.setUser(event.user);
    },
    'monitor.checked': (event) => {
      for (const store of monitorStores()) store.applyChecked(event);
    },
    'monitor.status_changed': (event) => {
      for (const store of monitorStores()) store.applyStatusChanged(event);
    },
    'monitors.changed': (event) => {
      for (const store of monitorStores()) store.applyChange(event);
    },
    'agent.reported': (event) => {
      for (const store of agentStores()) store.applyReported(event);
    },
    'agent.status_changed': (event) => {
      for (const store of agentStores()) store.applyStatusChanged(event);
    },
    'agents.changed': (event) => {
      for (const store of agentStores()) store.applyChange(event);
    },
    'auth.error': () => {
      // The server revoked this socket's token (password or role change, deletion). If the session still holds the
      // same token afterwards, asking for the current user settles it: a 401 there signs the user out.
      const token = useAuthStore.getState().token;
      setTimeout(() => {
        if (useAuthStore.getState().token === token) void useAuthStore.getState().refreshUser();
      }, SESSION_CHECK_DELAY_MS);
    },
  };
}
