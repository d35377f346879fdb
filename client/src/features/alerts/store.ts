import type { AlertDto, AlertsResponse } from '@vigil/proto';
import { create } from 'zustand';
import { liveCache } from '../../live/cache';
import { createLiveList, type LoadStatus } from '../../live/liveList';
import { alertsApi, DEFAULT_ALERTS_QUERY, type AlertsQuery } from './api';
import { isUnresolved, matchesQuery } from './live';

const table = liveCache.alerts;
/** The alerts page's view in the cache. */
const PAGE_VIEW = 'alerts-page';
/** Unresolved alerts other screens offer to acknowledge (detail pages, dashboard feed, notification history). */
const OPEN_VIEW = 'alerts-open';
/** A storm changes many alerts at once: the page re-reads once per this long, not once per alert. */
export const ALERTS_RESYNC_MS = 1000;
/** The open alerts the dashboard and the history read at once; enough for every feed entry and history page. */
export const OPEN_ALERTS_READ = 100;

type Counts = AlertsResponse['counts'];

/** The alerts page: one page of alerts for its filters, kept live by `alert.changed`. */
export const useAlertsStore = createLiveList<AlertDto, AlertsQuery, Counts, { applyChanged: (alert: AlertDto) => void }>(
  {
    table,
    view: PAGE_VIEW,
    query: DEFAULT_ALERTS_QUERY,
    counts: { open: 0, acknowledged: 0 },
    fetch: async (query, signal) => {
      const response = await alertsApi.list(query, signal);
      return { rows: response.alerts, total: response.total, counts: response.counts };
    },
    destroy: () => Promise.reject(new Error('Alerts are kept, never deleted')),
    matches: matchesQuery,
    countsAfter: (counts) => counts,
    resyncDelayMs: ALERTS_RESYNC_MS,
  },
  (list) => ({
    applyChanged(alert) {
      const held = table.get(alert.id);
      table.offer(alert);
      // A new alert, or one whose state changed, moves the counts and maybe the page's membership: the server says how.
      if (!held || held.state !== alert.state) list.resyncSoon();
    },
  }),
);

interface OpenAlertsState {
  status: LoadStatus;
  /** Unresolved alerts by id, as the cache holds them. */
  alerts: Record<number, AlertDto>;
  /** Reads the newest open alerts (dashboard feed, notification history). */
  load: (options?: { quiet?: boolean }) => Promise<void>;
  /** Reads the open alerts of one monitor or agent (its detail page). */
  loadTarget: (kind: AlertDto['target_kind'], id: number) => Promise<void>;
  /** An alert read, pushed or answered by an acknowledgement: kept while unresolved, dropped once resolved. */
  accept: (alerts: readonly AlertDto[]) => void;
}

/** Open alerts of any screen but the alerts page, so each can offer to acknowledge what it shows. */
export const useOpenAlertsStore = create<OpenAlertsState>()((set, get) => {
  const mirror = () => {
    const alerts: Record<number, AlertDto> = {};
    for (const alert of table.rows(OPEN_VIEW)) alerts[alert.id] = alert;
    set({ alerts });
  };
  table.subscribe(() => {
    const held = get().alerts;
    const rows = table.rows(OPEN_VIEW);
    if (rows.length !== Object.keys(held).length || rows.some((row) => held[row.id] !== row)) mirror();
  });

  return {
    status: 'idle',
    alerts: {},

    async load({ quiet = false } = {}) {
      if (!quiet || get().status !== 'ready') set({ status: 'loading' });
      try {
        const response = await alertsApi.list({ ...DEFAULT_ALERTS_QUERY, state: 'open', pageSize: OPEN_ALERTS_READ });
        get().accept(response.alerts);
        set({ status: 'ready' });
      } catch {
        if (get().status !== 'ready') set({ status: 'error' });
      }
    },

    async loadTarget(kind, id) {
      try {
        const response = await alertsApi.list({ ...DEFAULT_ALERTS_QUERY, state: 'open', kind, targetId: id });
        get().accept(response.alerts);
      } catch {
        // The page shows its monitor or agent without the button; the next push or visit tries again.
      }
    },

    accept(alerts) {
      table.write(alerts);
      const ids = new Set(table.ids(OPEN_VIEW));
      for (const alert of alerts) {
        const row = table.get(alert.id) ?? alert;
        if (isUnresolved(row)) ids.add(alert.id);
        else ids.delete(alert.id);
      }
      table.show(OPEN_VIEW, [...ids]);
    },
  };
});

/** An alert from a push or an acknowledgement's answer, to every screen that shows alerts. */
export function takeAlert(alert: AlertDto): void {
  useAlertsStore.getState().applyChanged(alert);
  const open = useOpenAlertsStore.getState();
  // An unresolved alert joins the open set (a screen may offer to acknowledge it); a resolved one leaves it.
  if (open.alerts[alert.id] || isUnresolved(alert)) open.accept([alert]);
}

/** The unresolved alerts of a monitor or agent, newest first. */
export function alertsOf(alerts: Record<number, AlertDto>, kind: AlertDto['target_kind'], id: number): AlertDto[] {
  return Object.values(alerts)
    .filter((alert) => alert.target_kind === kind && alert.target_id === id)
    .sort((a, b) => Date.parse(b.opened_at) - Date.parse(a.opened_at));
}
