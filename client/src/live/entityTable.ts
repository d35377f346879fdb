/**
 * Rows of one kind (monitors, agents, public items) keyed by id, shared by every screen that shows them, with the id
 * list of each screen ("view"). Reads and pushes both land here through `write`, so the rule that a read older than
 * a push does not roll it back is applied in this one place.
 */
export interface EntityRule<T> {
  /** When a row's figures were true (a monitor's last check); null when the row does not say. */
  stampOf?: (row: T) => string | null;
  /** A read older than the row held: what to keep. By default the held row stays as it is. */
  whenOlder?: (held: T, read: T) => T;
}

export interface EntityTable<T extends { id: number }> {
  get(id: number): T | undefined;
  /** The rows a view shows, in its order (rows no longer held are left out). */
  rows(view: string): T[];
  ids(view: string): readonly number[];
  /**
   * Takes rows from a read or a push. `stamp` dates them all (a projection's `updated_at`); without it each row's
   * own stamp is used. A row older than the one held does not overwrite its newer figures.
   */
  write(rows: readonly T[], stamp?: string | null): void;
  /**
   * Changes one held row (a pushed check or status). A row not held is not shown; its change is kept a few seconds in
   * case a read of it is on its way (a new monitor checked while its list loads), then laid over that read.
   */
  patch(id: number, change: (row: T) => T, stamp?: string | null): void;
  /**
   * Takes a whole row from a push when it is held or a view lists its id (a screen whose read of it is on its way:
   * the read, older, then keeps the pushed figures); otherwise ignores it, as no screen shows it.
   */
  offer(row: T, stamp?: string | null): void;
  /** Sets a view's ids; rows that leave it and that no other view shows are forgotten. */
  show(view: string, ids: readonly number[]): void;
  /** Calls `listener` after every change; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
  /** Forgets every row and view (sign-out, tests). */
  clear(): void;
}

/** Changes of rows not held kept for a read on its way: this long, for this many rows, this many changes each. */
const PENDING_MS = 10_000;
const PENDING_ROWS = 500;
const PENDING_CHANGES = 4;

function parse(stamp: string | null | undefined): number {
  const time = stamp ? Date.parse(stamp) : Number.NaN;
  return Number.isNaN(time) ? Number.NEGATIVE_INFINITY : time;
}

export function createEntityTable<T extends { id: number }>(rule: EntityRule<T> = {}, now: () => number = Date.now): EntityTable<T> {
  const rows = new Map<number, T>();
  /** Changes pushed for rows not held, oldest row first (a Map keeps insertion order), each with when it came. */
  const pending = new Map<number, Array<{ change: (row: T) => T; stamp?: string | null; at: number }>>();
  const stamps = new Map<number, number>();
  const views = new Map<string, readonly number[]>();
  const listeners = new Set<() => void>();
  const notify = () => listeners.forEach((listener) => listener());
  const stampOf = (row: T, stamp?: string | null) => parse(stamp ?? rule.stampOf?.(row));

  function store(row: T, at: number): boolean {
    const held = rows.get(row.id);
    const heldAt = stamps.get(row.id) ?? Number.NEGATIVE_INFINITY;
    const next = held && heldAt > at ? (rule.whenOlder?.(held, row) ?? held) : row;
    if (next === held) return false;
    rows.set(row.id, next);
    stamps.set(row.id, Math.max(heldAt, at));
    return true;
  }

  /** Keeps a change of a row not held, bounded in rows, changes and time (pushes for rows no screen shows are many). */
  function keep(id: number, change: (row: T) => T, stamp?: string | null): void {
    const changes = pending.get(id) ?? [];
    pending.delete(id);
    pending.set(id, [...changes, { change, stamp, at: now() }].slice(-PENDING_CHANGES));
    if (pending.size > PENDING_ROWS) pending.delete(pending.keys().next().value!);
  }

  /** Lays the kept changes of a row just read over it (each dated as pushed: an older one changes nothing). */
  function replay(id: number): void {
    const changes = pending.get(id);
    if (!changes) return;
    pending.delete(id);
    for (const { change, stamp, at } of changes) {
      const held = rows.get(id);
      if (held && now() - at <= PENDING_MS) {
        const next = change(held);
        if (next !== held) store(next, stampOf(next, stamp));
      }
    }
  }

  /** Whether a view (other than `except`) lists the id. */
  function listed(id: number, except?: string): boolean {
    for (const [view, ids] of views) if (view !== except && ids.includes(id)) return true;
    return false;
  }

  /** Forgets the rows that left `view` and that no other view shows. */
  function forgetLeft(view: string, left: readonly number[]): void {
    for (const id of left) {
      if (listed(id, view)) continue;
      rows.delete(id);
      stamps.delete(id);
    }
  }

  return {
    get: (id) => rows.get(id),
    rows: (view) => (views.get(view) ?? []).flatMap((id) => rows.get(id) ?? []),
    ids: (view) => views.get(view) ?? [],

    write(written, stamp) {
      let changed = false;
      for (const row of written) {
        changed = store(row, stampOf(row, stamp)) || changed;
        if (pending.has(row.id)) {
          replay(row.id);
          changed = true;
        }
      }
      if (changed) notify();
    },

    patch(id, change, stamp) {
      const held = rows.get(id);
      if (!held) return keep(id, change, stamp);
      const next = change(held);
      if (next !== held && store(next, stampOf(next, stamp))) notify();
    },

    offer(row, stamp) {
      if ((rows.has(row.id) || listed(row.id)) && store(row, stampOf(row, stamp))) notify();
    },

    show(view, ids) {
      const kept = new Set(ids);
      const left = (views.get(view) ?? []).filter((id) => !kept.has(id));
      views.set(view, ids);
      forgetLeft(view, left);
      notify();
    },

    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },

    clear() {
      rows.clear();
      stamps.clear();
      pending.clear();
      views.clear();
      notify();
    },
  };
}
