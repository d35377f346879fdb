import type { StatusData, StatusItemEvent } from '@vigil/proto';
import { create } from 'zustand';
import { statusApi } from './api';

type LoadStatus = 'idle' | 'loading' | 'ready' | 'error';

interface StatusPageState {
  data: StatusData | null;
  status: LoadStatus;
  error: unknown;
  /**
   * Reads the page's data. A new read aborts the one still in flight; `quiet` keeps the page on screen (and on a
   * failure, as it was); `signal` lets the caller abort it too.
   */
  load: (options?: { quiet?: boolean; signal?: AbortSignal }) => Promise<void>;
  /** A live item: it replaces its card, and the banner and update time follow. */
  applyItem: (event: StatusItemEvent) => void;
  /** The configuration or an item's name changed: read again (once for a burst). */
  applyChanged: () => void;
}

/** A burst of "read again" notices (a bulk import renames or adds many items) makes one read, this long after the first. */
export const CHANGED_DELAY_MS = 500;

let inFlight: AbortController | null = null;
let changedTimer: ReturnType<typeof setTimeout> | null = null;
/** Items pushed while a read is on its way; re-applied if the answer is older than them. */
let pushedDuringLoad: StatusItemEvent[] = [];

function patched(data: StatusData, event: StatusItemEvent): StatusData | null {
  let { monitors, agents } = data;
  if (event.monitor) {
    const index = monitors.findIndex((row) => row.id === event.monitor?.id);
    if (index < 0) return null;
    monitors = monitors.with(index, event.monitor);
  }
  if (event.agent) {
    const index = agents.findIndex((row) => row.id === event.agent?.id);
    if (index < 0) return null;
    agents = agents.with(index, event.agent);
  }
  return { ...data, monitors, agents, overall: event.overall, updated_at: event.updated_at };
}

function newer(event: StatusItemEvent, data: StatusData): boolean {
  return Date.parse(event.updated_at) > Date.parse(data.updated_at);
}

/** The public status page: its data, read once and then patched by `status` pushes. */
export const useStatusPageStore = create<StatusPageState>()((set, get) => ({
  data: null,
  status: 'idle',
  error: null,

  async load({ quiet = false, signal } = {}) {
    // This read brings whatever a pending "read again" was waiting for.
    if (changedTimer !== null) clearTimeout(changedTimer);
    changedTimer = null;
    inFlight?.abort();
    const controller = new AbortController();
    inFlight = controller;
    const forward = () => controller.abort();
    signal?.addEventListener('abort', forward);
    pushedDuringLoad = [];
    const keep = quiet && get().status === 'ready';
    if (!keep) set({ status: 'loading', error: null });
    try {
      const response = await statusApi.data(controller.signal);
      if (controller.signal.aborted) return;
      let data = response.data;
      for (const event of pushedDuringLoad) if (newer(event, data)) data = patched(data, event) ?? data;
      set({ data, status: 'ready', error: null });
    } catch (error) {
      if (controller.signal.aborted) return;
      if (!keep) set({ status: 'error', error });
    } finally {
      signal?.removeEventListener('abort', forward);
      if (inFlight === controller) {
        inFlight = null;
        pushedDuringLoad = [];
      }
    }
  },

  applyItem(event) {
    if (inFlight) pushedDuringLoad.push(event);
    const { data, status } = get();
    if (!data || status !== 'ready') return;
    const next = patched(data, event);
    // An item this page does not hold means the page is out of date: read it again.
    if (next) set({ data: next });
    else void get().load({ quiet: true });
  },

  applyChanged() {
    if (get().status === 'idle' || changedTimer !== null) return;
    changedTimer = setTimeout(() => {
      changedTimer = null;
      void get().load({ quiet: true });
    }, CHANGED_DELAY_MS);
  },
}));
