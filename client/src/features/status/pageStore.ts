import type { StatusData, StatusItemEvent } from '@vigil/proto';
import { create } from 'zustand';
import { liveCache } from '../../live/cache';
import type { LoadStatus } from '../../live/liveList';
import { latestRequest, settleLater } from '../../live/request';
import { statusApi } from './api';

interface StatusPageState {
  /** The page as shown: its settings, and its items as the cache holds them now. */
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

/** The page's views in the cache. */
const MONITORS = 'status-monitors';
const AGENTS = 'status-agents';
const PAGE_VIEW = 'status-page';
const { statusMonitors: publicMonitors, statusAgents: publicAgents, statusPages } = liveCache;
const request = latestRequest();

/** The status page's row in the cache (there is one page). */
const PAGE = 0;

/** The public status page: its data, read once and then patched by `status` pushes. */
export const useStatusPageStore = create<StatusPageState>()((set, get) => {
  const settle = settleLater(CHANGED_DELAY_MS, () => void get().load({ quiet: true }));
  /** A banner pushed before the first read landed; the cache dates it against that read. */
  let earlyBanner: Pick<StatusItemEvent, 'overall' | 'updated_at'> | null = null;

  /** The page from the cache: its head (settings, banner, update time) and its items. */
  function compose(): void {
    const head = statusPages.get(PAGE);
    if (!head) return;
    const { title, description, logoUrl, customCss, showResources, overall, updated_at } = head;
    const [monitors, agents] = [publicMonitors.rows(MONITORS), publicAgents.rows(AGENTS)];
    set({ data: { title, description, logoUrl, customCss, showResources, overall, monitors, agents, updated_at } });
  }

  publicMonitors.subscribe(compose);
  publicAgents.subscribe(compose);
  statusPages.subscribe(compose);

  return {
    data: null,
    status: 'idle',
    error: null,

    async load({ quiet = false, signal } = {}) {
      // This read brings whatever a pending "read again" was waiting for.
      settle.cancel();
      const ticket = request.start(signal);
      const keep = quiet && get().status === 'ready';
      if (!keep) set({ status: 'loading', error: null });
      try {
        const { data } = await statusApi.data(ticket.signal);
        if (!ticket.current) return;
        // Items and a banner pushed while the read was on its way are newer than it: the cache keeps them.
        const { monitors, agents, ...head } = data;
        publicMonitors.write(monitors, data.updated_at);
        publicAgents.write(agents, data.updated_at);
        statusPages.write([{ ...head, id: PAGE }], data.updated_at);
        if (earlyBanner) statusPages.patch(PAGE, (held) => ({ ...held, ...earlyBanner }), earlyBanner.updated_at);
        earlyBanner = null;
        publicMonitors.show(
          MONITORS,
          monitors.map((row) => row.id),
        );
        publicAgents.show(
          AGENTS,
          agents.map((row) => row.id),
        );
        statusPages.show(PAGE_VIEW, [PAGE]);
        set({ status: 'ready', error: null });
        compose();
      } catch (error) {
        if (ticket.current && !keep) set({ status: 'error', error });
      } finally {
        ticket.end();
      }
    },

    applyItem(event) {
      // Written even while a read is on its way, so its older answer cannot roll the page back.
      if (event.monitor) publicMonitors.write([event.monitor], event.updated_at);
      if (event.agent) publicAgents.write([event.agent], event.updated_at);
      const banner = { overall: event.overall, updated_at: event.updated_at };
      if (statusPages.get(PAGE)) statusPages.patch(PAGE, (head) => ({ ...head, ...banner }), event.updated_at);
      else if (!earlyBanner || Date.parse(banner.updated_at) > Date.parse(earlyBanner.updated_at)) earlyBanner = banner;
      if (get().status !== 'ready') return;
      const shown =
        (!event.monitor || publicMonitors.ids(MONITORS).includes(event.monitor.id)) &&
        (!event.agent || publicAgents.ids(AGENTS).includes(event.agent.id));
      // An item this page does not hold means the page is out of date: read it again.
      if (!shown) void get().load({ quiet: true });
    },

    applyChanged() {
      if (get().status !== 'idle') settle.schedule();
    },
  };
});
