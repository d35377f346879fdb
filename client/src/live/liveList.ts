import { create } from 'zustand';
import type { EntityTable } from './entityTable';
import { latestRequest, settleLater } from './request';

export type LoadStatus = 'idle' | 'loading' | 'ready' | 'error';

export interface ListQuery {
  page: number;
  pageSize: number;
  search: string;
}

export interface ListPage<T, C> {
  rows: T[];
  total: number;
  counts: C;
}

export interface LiveListState<T, Q extends ListQuery, C> {
  /** The page's rows, in the server's order, as the cache holds them now. */
  rows: T[];
  /** Rows matching the query, over every page. */
  total: number;
  /** Over every row, whatever the query: the summary numbers. */
  counts: C;
  query: Q;
  status: LoadStatus;
  error: unknown;
  /** A request is on its way (also a quiet one). */
  fetching: boolean;
  /**
   * Loads the page for the query changed by `patch`. `keepRows` leaves the current rows on screen until the answer
   * lands (paging, filtering); `quiet` does too and, for background refreshes, also keeps them when the call fails.
   */
  load: (patch?: Partial<Q>, options?: { quiet?: boolean; keepRows?: boolean; signal?: AbortSignal }) => Promise<void>;
  remove: (id: number) => Promise<void>;
}

export interface LiveListConfig<T extends { id: number }, Q extends ListQuery, C> {
  table: EntityTable<T>;
  /** The list's name in the cache (each list store has its own); a fresh one when left out. */
  view?: string;
  query: Q;
  counts: C;
  fetch: (query: Q, signal: AbortSignal) => Promise<ListPage<T, C>>;
  destroy: (id: number) => Promise<unknown>;
  /** Whether a row belongs on a list shown with this query (the server's rules, for pushes). */
  matches: (row: T, query: Q) => boolean;
  /** The summary numbers after a row joined (+1) or left (-1). */
  countsAfter: (counts: C, row: T, delta: 1 | -1) => C;
  /** How soon a re-read follows a push the list could not settle by itself, once for a burst. */
  resyncDelayMs: number;
}

/** What a domain's push handlers may do to its list. */
export interface LiveList<T, Q extends ListQuery, C> {
  state: () => LiveListState<T, Q, C>;
  ready: () => boolean;
  setCounts: (counts: C) => void;
  /** A row was created elsewhere: counted, and shown at the end of the last page when it belongs and fits. */
  created: (row: T) => void;
  /** A row was deleted (here or elsewhere): taken off the page and the counts, once however often it is told. */
  deleted: (row: T) => void;
  /** Re-reads the page a little later, once for a burst. */
  resyncSoon: () => void;
  /** A push the list could not take (not ready): a read on its way may predate it, so read again after that one. */
  missed: () => void;
}

let unnamedLists = 0;

/**
 * A paged, filtered list of cached rows kept live by pushes: the monitor and agent lists and their dashboard cards.
 * The store holds the page's ids and its query; the rows are the cache's, so a push changes every screen at once.
 */
export function createLiveList<T extends { id: number }, Q extends ListQuery, C, A extends object>(
  config: LiveListConfig<T, Q, C>,
  actions: (list: LiveList<T, Q, C>) => A,
) {
  const { table } = config;
  const view = config.view ?? `list-${++unnamedLists}`;
  const request = latestRequest();
  /** Ids whose deletion has been counted, so the HTTP answer and the push do not both count it. */
  const deletedIds = new Set<number>();
  /** A membership push came while a read was on its way, whose answer may predate it. */
  let pushedDuringRead = false;

  type State = LiveListState<T, Q, C> & A;
  return create<State>()((set, get) => {
    // `A` is the domain's; the list's own fields are all this module sets.
    const update = (partial: Partial<LiveListState<T, Q, C>>) => set(partial as Partial<State>);
    const resync = settleLater(config.resyncDelayMs, () => void get().load({}, { quiet: true }));
    const ready = () => get().status === 'ready';
    const showIds = (ids: number[]) => {
      table.show(view, ids);
      update({ rows: table.rows(view) });
    };

    // The page follows the cache: a pushed check or edit of one of its rows replaces that row only.
    table.subscribe(() => {
      const rows = table.rows(view);
      const held = get().rows;
      if (rows.length !== held.length || rows.some((row, index) => row !== held[index])) {
        update({ rows });
      }
    });

    const list: LiveList<T, Q, C> = {
      state: get,
      ready,
      setCounts: (counts) => update({ counts }),
      created(row) {
        list.missed();
        const { query, total, counts } = get();
        if (table.ids(view).includes(row.id)) return;
        const belongs = config.matches(row, query);
        // Rows are ordered by id, so a new one belongs at the end of the last page.
        const onLastPage = query.page >= Math.ceil(total / query.pageSize);
        const fits = table.ids(view).length < query.pageSize;
        update({ counts: config.countsAfter(counts, row, 1), total: belongs ? total + 1 : total });
        if (belongs && onLastPage && fits) {
          table.write([row]);
          showIds([...table.ids(view), row.id]);
        }
      },
      deleted(row) {
        list.missed();
        if (deletedIds.has(row.id)) return;
        deletedIds.add(row.id);
        const { total, counts } = get();
        const ids = table.ids(view);
        const present = ids.includes(row.id);
        update({ total: present ? Math.max(0, total - 1) : total, counts: config.countsAfter(counts, row, -1) });
        if (present) showIds(ids.filter((id) => id !== row.id));
      },
      resyncSoon() {
        if (ready()) resync.schedule();
      },
      missed() {
        if (get().fetching) pushedDuringRead = true;
      },
    };

    return {
      rows: [],
      total: 0,
      counts: config.counts,
      query: config.query,
      status: 'idle',
      error: null,
      fetching: false,

      async load(patch = {}, { quiet = false, keepRows = false, signal } = {}) {
        resync.cancel();
        const query = { ...get().query, ...patch, pageSize: config.query.pageSize };
        const ticket = request.start(signal);
        pushedDuringRead = false;
        const keep = (quiet || keepRows) && ready();
        update(keep ? { query, fetching: true } : { query, fetching: true, status: 'loading', error: null });
        try {
          const page = await config.fetch(query, ticket.signal);
          if (!ticket.current) return;
          // A page emptied by deletions elsewhere falls back to the last page that still has rows.
          const lastPage = Math.max(1, Math.ceil(page.total / query.pageSize));
          if (page.rows.length === 0 && query.page > lastPage) {
            ticket.end();
            return get().load({ page: lastPage } as Partial<Q>, { quiet, keepRows });
          }
          deletedIds.clear();
          table.write(page.rows);
          update({ total: page.total, counts: page.counts, status: 'ready', error: null, fetching: false });
          showIds(page.rows.map((row) => row.id));
          // The answer may have been read before a row a push brought was created or deleted: read once more.
          if (pushedDuringRead) {
            pushedDuringRead = false;
            resync.schedule();
          }
        } catch (error) {
          if (!ticket.current) return;
          update(quiet && ready() ? { fetching: false } : { status: 'error', error, fetching: false });
        } finally {
          ticket.end();
        }
      },

      async remove(id) {
        await config.destroy(id);
        const row = table.get(id);
        if (row && table.ids(view).includes(id)) list.deleted(row);
        // The next page's first row moves up into the freed place.
        list.resyncSoon();
      },

      ...actions(list),
    };
  });
}
