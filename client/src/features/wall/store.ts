import {
  byProblem,
  overallOf,
  type PublicAgent,
  type PublicMonitor,
  type StatusChange,
  type WallData,
  type WallLocationsEvent,
} from '@vigil/proto';
import { create } from 'zustand';
import { ApiError } from '../../api/http';
import { liveCache } from '../../live/cache';
import type { EntityTable } from '../../live/entityTable';
import type { LoadStatus } from '../../live/liveList';
import { latestRequest, settleLater } from '../../live/request';
import { wallApi } from './api';

/** Entries the wall's feed keeps (the server sends the last 20). */
export const WALL_FEED_LENGTH = 20;

/** The wall's views in the cache: items in the server's order, problems first. */
const MONITORS = 'wall-monitors';
const AGENTS = 'wall-agents';
const { wallMonitors: publicMonitors, wallAgents: publicAgents } = liveCache;
const request = latestRequest();

interface WallState {
  /** The display key the screen was opened with; null for a signed-in user. Kept in memory only. */
  displayKey: string | null;
  /** The wall as shown: its feed, and its items as the cache holds them now. */
  data: WallData | null;
  status: LoadStatus;
  error: unknown;
  /** The display key was refused (unknown or revoked): the screen says so and stops. */
  rejected: boolean;
  /** Starts a screen for this key (or the signed-in user), forgetting what an earlier one held. */
  open: (displayKey: string | null) => void;
  load: (options?: { quiet?: boolean; signal?: AbortSignal }) => Promise<void>;
  /** A transition: the item takes its new status and place, the feed gets the entry on top. */
  applyChange: (change: StatusChange) => void;
  /** Items were added, renamed or removed: read again (once for a burst). */
  applyChanged: () => void;
  /** A monitor's location started or stopped failing: its tile's counts, dated so an older read does not undo them. */
  applyLocations: (event: WallLocationsEvent) => void;
  reject: () => void;
}

/** A burst of "read again" notices (a bulk import) makes one read, this long after the first. */
export const CHANGED_DELAY_MS = 500;

/** Shows the items in the server's order: problems first, then by name. */
function showInOrder<T extends PublicMonitor | PublicAgent>(table: EntityTable<T>, view: string, ids: number[]): void {
  table.show(view, ids);
  table.show(
    view,
    table
      .rows(view)
      .sort(byProblem)
      .map((item) => item.id),
  );
}

/** An item's new status, dated by the change so that an older read does not undo it, and its new place. */
function moveItem<T extends PublicMonitor | PublicAgent>(table: EntityTable<T>, view: string, change: StatusChange): void {
  table.patch(change.id, (item) => (item.status === change.status ? item : { ...item, status: change.status as T['status'] }), change.at);
  showInOrder(table, view, [...table.ids(view)]);
}

/** The NOC wall: every monitor and agent, problems first, and the feed of recent transitions. */
export const useWallStore = create<WallState>()((set, get) => {
  /** The feed and update time, as last read or pushed. */
  let feed: Pick<WallData, 'recent_changes' | 'updated_at'> | null = null;
  const settle = settleLater(CHANGED_DELAY_MS, () => void get().load({ quiet: true }));

  /** The wall from its feed and the cache's rows; the banner follows the items by the server's rule. */
  function compose(): void {
    if (!feed) return;
    const monitors = publicMonitors.rows(MONITORS);
    const agents = publicAgents.rows(AGENTS);
    set({ data: { ...feed, overall: overallOf([...monitors, ...agents]), monitors, agents } });
  }

  publicMonitors.subscribe(compose);
  publicAgents.subscribe(compose);

  return {
    displayKey: null,
    data: null,
    status: 'idle',
    error: null,
    rejected: false,

    open(displayKey) {
      request.abort();
      settle.cancel();
      feed = null;
      set({ displayKey, data: null, status: 'idle', error: null, rejected: false });
    },

    async load({ quiet = false, signal } = {}) {
      // This read brings whatever a pending "read again" was waiting for.
      settle.cancel();
      if (get().rejected) return;
      const ticket = request.start(signal);
      const keep = quiet && get().status === 'ready';
      if (!keep) set({ status: 'loading', error: null });
      try {
        const { data } = await wallApi.data(get().displayKey, ticket.signal);
        if (!ticket.current) return;
        publicMonitors.write(data.monitors, data.updated_at);
        publicAgents.write(data.agents, data.updated_at);
        feed = { recent_changes: data.recent_changes, updated_at: data.updated_at };
        // Items pushed while the read was on its way kept their newer status, so their place is decided again.
        showInOrder(
          publicMonitors,
          MONITORS,
          data.monitors.map((item) => item.id),
        );
        showInOrder(
          publicAgents,
          AGENTS,
          data.agents.map((item) => item.id),
        );
        set({ status: 'ready', error: null });
        compose();
      } catch (error) {
        if (!ticket.current) return;
        if (get().displayKey !== null && error instanceof ApiError && error.status === 401) set({ rejected: true });
        else if (!keep) set({ status: 'error', error });
      } finally {
        ticket.end();
      }
    },

    applyChange(change) {
      if (!feed || get().status !== 'ready') return;
      const recent_changes = [change, ...feed.recent_changes].slice(0, WALL_FEED_LENGTH);
      const held = change.kind === 'monitor' ? publicMonitors.ids(MONITORS) : publicAgents.ids(AGENTS);
      if (!held.includes(change.id)) {
        // An item this wall does not hold yet: the entry shows at once, the item with the next read.
        feed = { recent_changes, updated_at: feed.updated_at };
        compose();
        void get().load({ quiet: true });
        return;
      }
      feed = { recent_changes, updated_at: change.at };
      if (change.kind === 'monitor') moveItem(publicMonitors, MONITORS, change);
      else moveItem(publicAgents, AGENTS, change);
    },

    applyChanged() {
      if (get().status !== 'idle') settle.schedule();
    },

    applyLocations({ monitor_id, locations_failing, locations_total, at }) {
      publicMonitors.patch(
        monitor_id,
        (item) =>
          item.locations_failing === locations_failing && item.locations_total === locations_total
            ? item
            : { ...item, locations_failing, locations_total },
        at,
      );
    },

    reject() {
      request.abort();
      set({ rejected: true });
    },
  };
});
