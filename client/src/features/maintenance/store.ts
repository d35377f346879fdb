import type { MaintenanceChangedEvent, MaintenanceDto } from '@vigil/proto';
import { create } from 'zustand';
import { liveCache } from '../../live/cache';
import { createLiveList } from '../../live/liveList';
import { DEFAULT_MAINTENANCE_QUERY, maintenanceApi, type MaintenanceQuery } from './api';

/** Windows starting or ending together (one sweep) re-read the list once per this long. */
export const MAINTENANCE_RESYNC_MS = 1000;

/** The maintenance page: one page of windows for its phase, re-read when a push says one changed. */
export const useMaintenanceStore = createLiveList<
  MaintenanceDto,
  MaintenanceQuery,
  null,
  { applyChanged: (event: MaintenanceChangedEvent) => void }
>(
  {
    table: liveCache.maintenance,
    view: 'maintenance-page',
    query: DEFAULT_MAINTENANCE_QUERY,
    counts: null,
    fetch: async (query, signal) => {
      const answer = await maintenanceApi.list(query, signal);
      return { rows: answer.maintenance, total: answer.total, counts: null };
    },
    destroy: (id) => maintenanceApi.remove(id),
    matches: (row, query) => query.phase === 'all' || row.phase === query.phase,
    countsAfter: () => null,
    resyncDelayMs: MAINTENANCE_RESYNC_MS,
  },
  (list) => ({
    applyChanged(event) {
      useMaintenanceChanges.getState().bump();
      if (!list.ready()) return;
      const shown = list.state().rows.find((row) => row.id === event.id);
      if (event.action === 'deleted' && shown) list.deleted(shown);
      // The push names the window only: its phase, its next occurrence and its place are the server's to say.
      list.resyncSoon();
    },
  }),
);

/** Counts pushed changes, so views that read on their own (calendar, a monitor's window) read again. */
export const useMaintenanceChanges = create<{ version: number; bump: () => void }>()((set) => ({
  version: 0,
  bump: () => set((state) => ({ version: state.version + 1 })),
}));
