import type { IncidentChangedEvent, IncidentDto } from '@vigil/proto';
import { create } from 'zustand';
import { liveCache } from '../../live/cache';
import { type DetailRead, type DetailStatus, followRow, loadDetail } from '../../live/detail';
import { createLiveList } from '../../live/liveList';
import { latestRequest } from '../../live/request';
import { DEFAULT_INCIDENTS_QUERY, incidentsApi, type IncidentsQuery } from './api';

const table = liveCache.incidents;
/** A burst of changes (an operator posting several updates) re-reads the list once per this long. */
export const INCIDENTS_RESYNC_MS = 1000;

/** Whether an incident belongs in a list with this state filter (the server's rule, for rows it sent). */
export function matchesState(incident: Pick<IncidentDto, 'published' | 'status'>, state: IncidentsQuery['state']): boolean {
  if (state === 'all') return true;
  if (state === 'draft') return !incident.published;
  if (!incident.published) return false;
  return state === 'resolved' ? incident.status === 'resolved' : incident.status !== 'resolved';
}

/** The incidents page: one page of incidents for its state and search, re-read when a push says one changed. */
export const useIncidentsStore = createLiveList<IncidentDto, IncidentsQuery, null, { applyChanged: (event: IncidentChangedEvent) => void }>(
  {
    table,
    view: 'incidents-page',
    query: DEFAULT_INCIDENTS_QUERY,
    counts: null,
    fetch: async (query, signal) => {
      const answer = await incidentsApi.list(query, signal);
      return { rows: answer.incidents, total: answer.total, counts: null };
    },
    destroy: (id) => incidentsApi.remove(id),
    matches: (incident, query) => matchesState(incident, query.state),
    countsAfter: () => null,
    resyncDelayMs: INCIDENTS_RESYNC_MS,
  },
  (list) => ({
    applyChanged(event) {
      if (!list.ready()) return;
      const shown = list.state().rows.find((row) => row.id === event.id);
      if (event.action === 'deleted' && shown) list.deleted(shown);
      // The push names the incident only: the server says where it now belongs and how it reads.
      list.resyncSoon();
    },
  }),
);

interface IncidentDetailState {
  id: number | null;
  incident: IncidentDto | null;
  status: DetailStatus;
  error: unknown;
  /** Deleted elsewhere while shown. */
  removed: boolean;
  load: (id: number, options?: { quiet?: boolean; signal?: AbortSignal }) => Promise<void>;
  /** An answer of a save or an update: shown at once. */
  accept: (incident: IncidentDto) => void;
  applyChanged: (event: IncidentChangedEvent) => void;
}

const request = latestRequest();

/** The incident on its detail page, with its timeline; a push about it reads it again. */
export const useIncidentDetailStore = create<IncidentDetailState>()((set, get) => {
  const detail: DetailRead<IncidentDto> = {
    table,
    view: 'incident-detail',
    request,
    read: async (id, signal) => (await incidentsApi.get(id, signal)).incident,
    current: () => ({ id: get().id, status: get().status, row: get().incident }),
    switchTo: (id) => set({ id, incident: null, status: 'loading', error: null, removed: false }),
    set: ({ row, ...patch }) => set(row === undefined ? patch : { ...patch, incident: row }),
  };
  followRow(detail);

  return {
    id: null,
    incident: null,
    status: 'idle',
    error: null,
    removed: false,
    load: (id, options) => loadDetail(detail, id, options),
    accept(incident) {
      table.write([incident]);
      if (get().id === incident.id) set({ incident: table.get(incident.id) ?? incident });
    },
    applyChanged(event) {
      const { id, status } = get();
      if (id !== event.id || status === 'idle') return;
      if (event.action === 'deleted') set({ removed: true });
      else void get().load(event.id, { quiet: true });
    },
  };
});
