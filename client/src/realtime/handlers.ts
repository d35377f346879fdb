import type { ServerToClientEvents } from '@vigil/proto';
import { takeAlert } from '../features/alerts/store';
import { useAgentDetailStore } from '../features/agents/detailStore';
import { useAgentEnrolmentStore } from '../features/agents/enrolmentStore';
import { useAgentsStore, useDashboardAgentsStore } from '../features/agents/listStore';
import { useAuthStore } from '../features/auth/store';
import { useDashboardStore } from '../features/dashboard/store';
import { useIncidentDetailStore, useIncidentsStore } from '../features/incidents/store';
import { useMaintenanceStore } from '../features/maintenance/store';
import { keptPoints, useMonitorDetailStore } from '../features/monitors/detailStore';
import { useDashboardMonitorsStore, useMonitorsStore } from '../features/monitors/listStore';
import { withCheck, withSettings, withStatus } from '../features/monitors/live';
import { withLocation } from '../features/monitors/locations';
import { useUsersStore } from '../features/users/store';
import { useWallStore } from '../features/wall/store';
import { liveCache } from '../live/cache';

/** Give a password change's HTTP answer (the new token) time to land before checking a revoked socket's session. */
const SESSION_CHECK_DELAY_MS = 1000;

/** The lists of monitors (page and dashboard): their counts and membership follow pushes. */
const monitorLists = () => [useMonitorsStore.getState(), useDashboardMonitorsStore.getState()];
/** The lists of agents (page and dashboard): their counts and membership follow pushes. */
const agentLists = () => [useAgentsStore.getState(), useDashboardAgentsStore.getState()];
const { monitors, agents, monitorLocations } = liveCache;

/**
 * Status pages' own pushes (and the spec's `status` room's) are the public page bundle's business (src/public/),
 * never the operator app's.
 */
export type HandledPushes = Omit<ServerToClientEvents, 'status.item' | 'status.changed' | 'status.page_item' | 'status.page_changed'>;

/** Who the socket is: a signed-in user or visitor (`session`), or a wall screen opened with a display key. */
export type SocketRole = 'session' | 'display';

/**
 * The one place server pushes become state: a row's own change is written once to the cache, where every screen
 * showing the row reads it; counts, membership and feeds go to the stores of the screens that keep them. Handlers
 * never touch components, so pages re-render from state and never see the socket.
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
      monitors.patch(event.monitorId, (monitor) => withCheck(monitor, event, keptPoints(event.monitorId)));
      useMonitorDetailStore.getState().applyChecked(event);
    },
    'monitor.status_changed': (event) => {
      for (const list of monitorLists()) list.applyStatusChanged(event);
      monitors.patch(event.monitorId, (monitor) => withStatus(monitor, event));
      useDashboardStore.getState().applyMonitorStatusChanged(event);
    },
    'monitor.location': (event) => monitorLocations.patch(event.monitor_id, (row) => withLocation(row, event.location)),
    'monitors.changed': (event) => {
      // Read before the row changes: each list counts the edit from the monitor as it was.
      const previous = monitors.get(event.monitor.id);
      for (const list of monitorLists()) list.applyChange(event, previous);
      if (event.action === 'updated') monitors.patch(event.monitor.id, (held) => withSettings(held, event.monitor));
      useMonitorDetailStore.getState().applyChange(event);
      useDashboardStore.getState().applyMembershipChanged();
    },
    'agent.reported': (event) => {
      // The push carries the whole agent with its new figures.
      agents.offer(event.agent);
      useAgentDetailStore.getState().applyReported(event);
    },
    'agent.status_changed': (event) => {
      for (const list of agentLists()) list.applyStatusChanged(event);
      agents.patch(event.agentId, (agent) =>
        agent.status === event.status && agent.unreachable === Boolean(event.unreachable)
          ? agent
          : { ...agent, status: event.status, unreachable: Boolean(event.unreachable) },
      );
      useDashboardStore.getState().applyAgentStatusChanged(event);
    },
    'agents.changed': (event) => {
      for (const list of agentLists()) list.applyChange(event);
      useAgentEnrolmentStore.getState().applyChange(event);
      if (event.action === 'updated') agents.patch(event.agent.id, () => event.agent);
      useAgentDetailStore.getState().applyChange(event);
      useDashboardStore.getState().applyMembershipChanged();
    },
    'wall.change': (event) => useWallStore.getState().applyChange(event),
    'wall.changed': () => useWallStore.getState().applyChanged(),
    'wall.locations': (event) => useWallStore.getState().applyLocations(event),
    'alert.changed': (event) => takeAlert(event.alert),
    'incident.changed': (event) => {
      useIncidentsStore.getState().applyChanged(event);
      useIncidentDetailStore.getState().applyChanged(event);
    },
    'maintenance.changed': (event) => useMaintenanceStore.getState().applyChanged(event),
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
