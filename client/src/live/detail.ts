import { ApiError } from '../api/http';
import type { EntityTable } from './entityTable';
import type { LoadStatus } from './liveList';
import type { latestRequest } from './request';

export type DetailStatus = LoadStatus | 'missing';

/** What a detail read changes in its store: the row (under the store's own name for it) and the read's state. */
export interface DetailPatch<Row> {
  row?: Row | null;
  status?: DetailStatus;
  error?: unknown;
  removed?: boolean;
}

/** One detail page's read of one row: the page shows the row through the cache, where every push about it lands. */
export interface DetailRead<Row extends { id: number }> {
  table: EntityTable<Row>;
  /** The page's view in the cache. */
  view: string;
  request: ReturnType<typeof latestRequest>;
  read(id: number, signal: AbortSignal): Promise<Row>;
  current(): { id: number | null; status: DetailStatus; row: Row | null };
  /** The page turns to another row: its other reads are aborted and its state starts over, loading `id`. */
  switchTo(id: number): void;
  set(patch: DetailPatch<Row>): void;
}

/** Follows the cache: a push about the shown row replaces it in the store. */
export function followRow<Row extends { id: number }>(detail: Pick<DetailRead<Row>, 'table' | 'current' | 'set'>): void {
  detail.table.subscribe(() => {
    const { id, row } = detail.current();
    const cached = id === null ? undefined : detail.table.get(id);
    if (cached && cached !== row) detail.set({ row: cached });
  });
}

/**
 * Reads the row `id` (the latest read wins). A 404 makes the page 'missing'; a quiet re-read that fails keeps what is
 * shown.
 */
export async function loadDetail<Row extends { id: number }>(
  detail: DetailRead<Row>,
  id: number,
  { quiet = false, signal }: { quiet?: boolean; signal?: AbortSignal } = {},
): Promise<void> {
  const ticket = detail.request.start(signal);
  if (detail.current().id !== id) {
    // Listed before it is read, so a push of the whole row meanwhile is kept (EntityTable.offer).
    detail.table.show(detail.view, [id]);
    detail.switchTo(id);
  } else if (!quiet) detail.set({ status: 'loading', error: null });
  try {
    const row = await detail.read(id, ticket.signal);
    if (!ticket.current) return;
    detail.table.write([row]);
    detail.table.show(detail.view, [id]);
    detail.set({ row: detail.table.get(id) ?? row, status: 'ready', error: null, removed: false });
  } catch (error) {
    if (!ticket.current) return;
    if (error instanceof ApiError && error.status === 404) detail.set({ status: 'missing', error });
    else if (!quiet || detail.current().status !== 'ready') detail.set({ status: 'error', error });
  } finally {
    ticket.end();
  }
}
