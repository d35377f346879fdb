import type { ServerToClientEvents } from '@vigil/proto';
import { useAgentDetailStore } from '../features/agents/detailStore';
import { useAgentEnrolmentStore } from '../features/agents/enrolmentStore';
import { useAgentsStore, useDashboardAgentsStore } from '../features/agents/listStore';
import { useAuthStore } from '../features/auth/store';
import { useDashboardStore } from '../features/dashboard/store';
import { useMonitorDetailStore } from '../features/monitors/detailStore';
import { useDashboardMonitorsStore, useMonitorsStore } from '../features/monitors/listStore';
import { useStatusPageStore } from '../features/status/pageStore';
import { useUsersStore } from '../features/users/store';
import { useWallStore } from '../features/wall/store';

/** Give a password change's HTTP answer (the new token) time to land before checking a revoked socket's session. */
const SESSION_CHECK_DELAY_MS = 1000;

/** Every store that shows monitors; each ignores pushes about monitors it does not hold. */
const monitorStores = () => [useMonitorsStore.getState(), useDashboardMonitorsStore.getState(), useMonitorDetailStore.getState()];
/** Every store that shows agents; each ignores pushes about agents it does not hold. */
const agentStores = () => [
  useAgentsStore.getState(),
  useDashboardAgentsStore.getState(),
  useAgentDetailStore.getState(),
  useAgentEnrolmentStore.getState(),
];

export type HandledPushes = ServerToClientEvents;

/** Who the socket is: a signed-in user or visitor (`session`), or a wall screen opened with a display key. */
export type SocketRole = 'session' | 'display';

/**
 * The one place server pushes become store updates. Each handler only touches stores, never components, so pages
 * re-render from state and never see the socket.
 */
export function pushHandlers(role: SocketRole = 'session'): HandledPushes {
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
      useDashboardStore.getState().applyMonitorStatusChanged(event);
    },
    'monitors.changed': (event) => {
      for (const store of monitorStores()) store.applyChange(event);
      useDashboardStore.getState().applyMembershipChanged();
    },
    'agent.reported': (event) => {
      for (const store of agentStores()) store.applyReported(event);
    },
    'agent.status_changed': (event) => {
      for (const store of agentStores()) store.applyStatusChanged(event);
      useDashboardStore.getState().applyAgentStatusChanged(event);
    },
    'agents.changed': (event) => {
      for (const store of agentStores()) store.applyChange(event);
      useDashboardStore.getState().applyMembershipChanged();
    },
    'status.item': (event) => useStatusPageStore.getState().applyItem(event),
    'status.changed': () => useStatusPageStore.getState().applyChanged(),
    'wall.change': (event) => useWallStore.getState().applyChange(event),
    'wall.changed': () => useWallStore.getState().applyChanged(),
    'auth.error': () => {
      // A wall screen's display key was revoked: the screen says so and stops.
      if (role === 'display') {
        useWallStore.getState().reject();
        return;
      }
      // The server revoked this socket's token (password or role change, deletion). If the session still holds the
      // same token afterwards, asking for the current user settles it: a 401 there signs the user out.
      const token = useAuthStore.getState().token;
      setTimeout(() => {
        if (useAuthStore.getState().token === token) void useAuthStore.getState().refreshUser();
      }, SESSION_CHECK_DELAY_MS);
    },
  };
}

/**
 * A wall screen's socket handshake was refused. The server refuses an unknown key, but also any key while it cannot
 * check one (its database still starting after a restart), so the key is checked over HTTP: true when it is really
 * refused (the screen stops), false when the socket should simply try again.
 */
export async function displayKeyRefused(): Promise<boolean> {
  await useWallStore.getState().load({ quiet: true });
  return useWallStore.getState().rejected;
}
