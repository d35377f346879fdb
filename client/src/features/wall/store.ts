import type { PublicAgent, PublicMonitor, StatusChange, WallData } from '@vigil/proto';
import { create } from 'zustand';
import { ApiError } from '../../api/http';
import { countedStatuses, itemRank, overallStatus } from '../status/overall';
import { wallApi } from './api';

/** Entries the wall's feed keeps (the server sends the last 20). */
export const WALL_FEED_LENGTH = 20;

type LoadStatus = 'idle' | 'loading' | 'ready' | 'error';

interface WallState {
  /** The display key the screen was opened with; null for a signed-in user. Kept in memory only. */
  displayKey: string | null;
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
  reject: () => void;
}

type Item = PublicMonitor | PublicAgent;

/** Problems first (down/offline, then pending/connecting), then by name: the server's order. */
export function byProblem(a: Item, b: Item): number {
  return itemRank(a) - itemRank(b) || a.name.localeCompare(b.name);
}

/** The list with one item's status changed and the order restored; the same list when nothing changes. */
export function withStatus<T extends Item>(items: T[], id: number, status: T['status']): T[] | null {
  const index = items.findIndex((item) => item.id === id);
  if (index < 0) return null;
  if (items[index].status === status) return items;
  return items.with(index, { ...items[index], status }).sort(byProblem);
}

/** A burst of "read again" notices (a bulk import) makes one read, this long after the first. */
export const CHANGED_DELAY_MS = 500;

let inFlight: AbortController | null = null;
let changedTimer: ReturnType<typeof setTimeout> | null = null;

/** The NOC wall: every monitor and agent, problems first, and the feed of recent transitions. */
export const useWallStore = create<WallState>()((set, get) => ({
  displayKey: null,
  data: null,
  status: 'idle',
  error: null,
  rejected: false,

  open(displayKey) {
    inFlight?.abort();
    inFlight = null;
    if (changedTimer !== null) clearTimeout(changedTimer);
    changedTimer = null;
    set({ displayKey, data: null, status: 'idle', error: null, rejected: false });
  },

  async load({ quiet = false, signal } = {}) {
    // This read brings whatever a pending "read again" was waiting for.
    if (changedTimer !== null) clearTimeout(changedTimer);
    changedTimer = null;
    if (get().rejected) return;
    inFlight?.abort();
    const controller = new AbortController();
    inFlight = controller;
    const forward = () => controller.abort();
    signal?.addEventListener('abort', forward);
    const keep = quiet && get().status === 'ready';
    if (!keep) set({ status: 'loading', error: null });
    try {
      const response = await wallApi.data(get().displayKey, controller.signal);
      if (controller.signal.aborted) return;
      set({ data: response.data, status: 'ready', error: null });
    } catch (error) {
      if (controller.signal.aborted) return;
      if (get().displayKey !== null && error instanceof ApiError && error.status === 401) {
        set({ rejected: true });
        return;
      }
      if (!keep) set({ status: 'error', error });
    } finally {
      signal?.removeEventListener('abort', forward);
      if (inFlight === controller) inFlight = null;
    }
  },

  applyChange(change) {
    const { data, status } = get();
    if (!data || status !== 'ready') return;
    const recent_changes = [change, ...data.recent_changes].slice(0, WALL_FEED_LENGTH);
    const monitors =
      change.kind === 'monitor' ? withStatus(data.monitors, change.id, change.status as PublicMonitor['status']) : data.monitors;
    const agents = change.kind === 'agent' ? withStatus(data.agents, change.id, change.status as PublicAgent['status']) : data.agents;
    if (monitors === null || agents === null) {
      // An item this wall does not hold yet: the entry shows at once, the item with the next read.
      set({ data: { ...data, recent_changes } });
      void get().load({ quiet: true });
      return;
    }
    const overall = overallStatus(countedStatuses([...monitors, ...agents]));
    set({ data: { ...data, monitors, agents, recent_changes, overall, updated_at: change.at } });
  },

  applyChanged() {
    if (get().status === 'idle' || changedTimer !== null) return;
    changedTimer = setTimeout(() => {
      changedTimer = null;
      void get().load({ quiet: true });
    }, CHANGED_DELAY_MS);
  },

  reject() {
    inFlight?.abort();
    set({ rejected: true });
  },
}));
